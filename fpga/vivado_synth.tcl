# {{top}}: Vivado non-project-mode synthesis, written by tpugen synth.
# Configuration: {{config}}
# Spec: {{spec}} (sha256 {{spec_sha256}})
#
# Run from this directory:
#   vivado -mode batch -source vivado_synth.tcl [-tclargs PART]
# Reads the sources in files.f order, the constraints in {{xdc}}, synthesizes
# out of context (the core's ports are not device pins) and writes the
# utilization and timing reports and a checkpoint to vivado/.

set part {{part}}
if {$argc > 0} { set part [lindex $argv 0] }
set here [file normalize [file dirname [info script]]]
set out  [file join $here vivado]
file mkdir $out

# The filelist: one source per line, relative to this directory, in compile order.
set fl [open [file join $here {{filelist}}] r]
foreach line [split [read $fl] "\n"] {
  set f [string trim $line]
  if {$f eq "" || [string index $f 0] eq "#"} continue
  read_verilog -sv [file join $here $f]
}
close $fl
read_xdc [file join $here {{xdc}}]

synth_design -top {{top}}{{vivado_generics}} -part $part -mode out_of_context -flatten_hierarchy rebuilt
write_checkpoint -force [file join $out post_synth.dcp]
report_utilization    -file [file join $out utilization.rpt]
report_utilization    -hierarchical -file [file join $out utilization_hier.rpt]
report_timing_summary -max_paths 10 -file [file join $out timing_summary.rpt]
report_timing -sort_by group -max_paths 10 -path_type summary -file [file join $out timing_paths.rpt]
puts "tpugen: reports written to $out"
