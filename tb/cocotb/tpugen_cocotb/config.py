"""The configuration a cocotb testbench runs against: tpu_config.json.

`tpugen gen --vpi` writes tpu_config.json beside the generated RTL; cocotb.mk
exports its path as TPUGEN_CONFIG. Every size and name the helper library
uses comes from it (the spec and the generated package, through tpugen):
nothing here is an ISA fact.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional


@dataclass(frozen=True)
class Counter:
    """A progress counter of progress_o and the header slice holding its count."""

    name: str
    unit: str
    hdr_word: int
    hdr_lsb: int
    hdr_width: int


@dataclass(frozen=True)
class RegField:
    """A field of the AXI top's control registers (spec/axi_top.yaml)."""

    name: str
    register: str
    offset: int     #: the register's byte offset
    lsb: int
    width: int
    access: str     #: rw, ro, w1s_hc, cor, tow

    @property
    def mask(self) -> int:
        """The field's bits in its register."""
        return ((1 << self.width) - 1) << self.lsb

    def get(self, value: int) -> int:
        """The field of a register's value."""
        return (value >> self.lsb) & ((1 << self.width) - 1)

    def put(self, v: int) -> int:
        """v in the field's bits (the rest 0)."""
        return (v << self.lsb) & self.mask


@dataclass(frozen=True)
class AxiStream:
    """One of the core's memory ports on the AXI master."""

    port: str
    id: int
    bases: List[str]  #: base address names, each a <name>_lo / <name>_hi field pair


@dataclass(frozen=True)
class AxiConfig:
    """The AXI top's host interface, from the AXI spec through tpugen
    (tpu_config.json "axi"; present when the top kind is "axi")."""

    spec: str
    data_bytes: int          #: bytes of the master's data bus
    addr_bits: int
    id_bits: int
    max_burst_beats: int
    boundary_bytes: int      #: no burst crosses a multiple of this
    max_outstanding: int     #: bursts in flight per stream
    master_bundle: str       #: ports m_axi_<master_bundle>_*
    control_bundle: str      #: ports s_axi_<control_bundle>_*
    control_data_bits: int
    control_addr_bits: int
    streams: List[AxiStream]
    fields: Dict[str, RegField]

    @property
    def master_prefix(self) -> str:
        return f"m_axi_{self.master_bundle}_"

    @property
    def control_prefix(self) -> str:
        return f"s_axi_{self.control_bundle}_"

    def field(self, name: str) -> RegField:
        try:
            return self.fields[name]
        except KeyError:
            raise KeyError(f"the AXI top's control registers have no field {name!r} "
                           f"({self.spec}); the driver needs it") from None

    @classmethod
    def from_json(cls, j: dict) -> "AxiConfig":
        return cls(
            spec=j["spec"], data_bytes=j["data_bytes"], addr_bits=j["addr_bits"], id_bits=j["id_bits"],
            max_burst_beats=j["max_burst_beats"], boundary_bytes=j["boundary_bytes"],
            max_outstanding=j["max_outstanding"], master_bundle=j["master_bundle"],
            control_bundle=j["control_bundle"], control_data_bits=j["control_data_bits"],
            control_addr_bits=j["control_addr_bits"],
            streams=[AxiStream(s["port"], s["id"], list(s["bases"])) for s in j["streams"]],
            fields={name: RegField(name=name, **f) for name, f in j["fields"].items()})


@dataclass(frozen=True)
class TpuConfig:
    path: Path                      #: the tpu_config.json it was read from
    top: str                        #: the top module (tpu_top or tpu_axi_top)
    top_kind: str                   #: "core" (native memory ports) or "axi"
    spec: str                       #: the spec the configuration was generated from
    parameters: Dict[str, int]      #: the build parameters (T, MAXDIM, ...)
    options: Dict[str, int]         #: the generator options (imem_beat_words, c_beat_words, watchdog_cycles)
    maxdim: int
    matrix_bytes: int               #: MAXDIM * MAXDIM: one DRAM matrix (A, B or C), row-major int8
    imem_size: int                  #: 64-bit words of instruction memory
    imem_beat_words: int            #: 64-bit words per imem response
    read_beat_bytes: int            #: bytes per operand read response
    write_beat_bytes: int           #: bytes per C write request
    count_width: int                #: bits of one progress counter in progress_o
    counters: List[Counter] = field(default_factory=list)
    unit_names: List[str] = field(default_factory=list)   #: fault_unit_o codes
    fault_names: List[str] = field(default_factory=list)  #: fault_o codes (0: NONE)
    axi: Optional[AxiConfig] = None  #: the AXI top's host interface (top_kind "axi")

    @property
    def dir(self) -> Path:
        """The generated configuration's directory (RTL, files.f, cocotb.mk)."""
        return self.path.parent

    @classmethod
    def load(cls, path: Optional[os.PathLike] = None) -> "TpuConfig":
        """Read tpu_config.json: `path`, else $TPUGEN_CONFIG (set by cocotb.mk)."""
        if path is None:
            env = os.environ.get("TPUGEN_CONFIG")
            if not env:
                raise RuntimeError(
                    "TPUGEN_CONFIG is not set: run the test through the cocotb.mk that `tpugen gen --vpi` "
                    "wrote, or pass TpuConfig.load(path/to/tpu_config.json)")
            path = env
        p = Path(path)
        if p.is_dir():
            p = p / "tpu_config.json"
        try:
            j = json.loads(p.read_text())
        except OSError as e:
            raise RuntimeError(f"cannot read the configuration {p}: {e}") from e
        return cls(
            path=p.resolve(),
            top=j["top"],
            top_kind=j["top_kind"],
            spec=j["spec"],
            parameters=dict(j["parameters"]),
            options=dict(j["options"]),
            maxdim=j["maxdim"],
            matrix_bytes=j["matrix_bytes"],
            imem_size=j["imem_size"],
            imem_beat_words=j["imem_beat_words"],
            read_beat_bytes=j["read_beat_bytes"],
            write_beat_bytes=j["write_beat_bytes"],
            count_width=j["count_width"],
            counters=[Counter(**c) for c in j["counters"]],
            unit_names=list(j["unit_names"]),
            fault_names=list(j["fault_names"]),
            axi=AxiConfig.from_json(j["axi"]) if "axi" in j else None,
        )

    def fault_name(self, code: int) -> str:
        return self.fault_names[code] if 0 <= code < len(self.fault_names) else f"?{code}"

    def unit_name(self, code: int) -> str:
        return self.unit_names[code] if 0 <= code < len(self.unit_names) else f"?{code}"
