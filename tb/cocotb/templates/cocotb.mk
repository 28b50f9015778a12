# cocotb.mk: the cocotb build of this configuration (@PARAMS@): Verilator
# with VPI, top @TOPLEVEL@, the RTL of files.f in its order. Written by
# @GENERATOR@ (gen --vpi); do not edit. Include it from your Makefile after
# naming your test module:
#
#   MODULE = test_mine
#   include path/to/this/directory/cocotb.mk
#
# then `make`. It needs cocotb @COCOTB_VERSION@ (pip install -r requirements.txt,
# beside this file), with cocotb-config on PATH, and Verilator 5.006 or later.
# TPU_SEED seeds the random initial state of every register and memory.
TPU_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))

ifeq ($(shell command -v cocotb-config),)
$(error cocotb-config not found: install cocotb @COCOTB_VERSION@ (pip install -r $(TPU_DIR)/requirements.txt, in a venv) and activate it)
endif
TPU_COCOTB_VERSION := $(shell cocotb-config --version)
ifneq ($(TPU_COCOTB_VERSION),@COCOTB_VERSION@)
$(warning cocotb $(TPU_COCOTB_VERSION) found; this build is made and tested for cocotb @COCOTB_VERSION@)
endif

SIM ?= verilator
TOPLEVEL_LANG ?= verilog
TOPLEVEL ?= @TOPLEVEL@
VERILOG_SOURCES += $(addprefix $(TPU_DIR)/,$(shell cat $(TPU_DIR)/files.f))
# One verilated simulator per configuration, beside it, whichever directory
# the tests are in (set SIM_BUILD for one of your own, e.g. with other
# EXTRA_ARGS or VERILATOR_TRACE=1).
SIM_BUILD ?= $(TPU_DIR)/sim_build
ifeq ($(SIM),verilator)
# cocotb adds --vpi --public-flat-rw; these are tpugen's own model flags.
EXTRA_ARGS += @VERILATOR_ARGS@
TPU_SEED ?= 1
PLUSARGS += +verilator+rand+reset+2 +verilator+seed+$(TPU_SEED)
endif

# The helper library (tpugen_cocotb/) and the configuration it reads. The
# directory make runs in comes first, so the test module is found there.
export PYTHONPATH := $(CURDIR):$(TPU_DIR)$(if $(PYTHONPATH),:$(PYTHONPATH))
export TPUGEN_CONFIG := $(TPU_DIR)/tpu_config.json

include $(shell cocotb-config --makefiles)/Makefile.sim
