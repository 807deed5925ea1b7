// `ws-gemm-opt --help` lists our passes under "Passes:" and the named pipeline
// under "Pass Pipelines:", each as a flag of its own (not only as the prefix
// of a longer one).

// RUN: ws-gemm-opt --help | FileCheck %s

// CHECK:     {{^ +}}Passes:
// CHECK-DAG: {{^ +}}--epi-expand-presets{{ +}}- {{[A-Z]}}
// CHECK-DAG: {{^ +}}--epi-lower-activations{{ +}}- {{[A-Z]}}
// CHECK-DAG: {{^ +}}--wsgemm-plan{{ +}}- {{[A-Z]}}
// CHECK:     {{^ +}}Pass Pipelines:
// CHECK:     {{^ +}}--wsgemm-prepare{{ +}}- {{[A-Z]}}
