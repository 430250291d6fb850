// navdb-bench: see BenchMain.run and BENCHMARKS.md.
BenchMain.run(Array(CommandLine.arguments.dropFirst()))
