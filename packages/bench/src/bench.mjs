// Placeholder: the benchmark suite lands with issue 4.
console.log('@fulcrum/bench: benchmarks arrive with issue 4');
