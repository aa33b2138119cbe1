# Shortcuts for the README's commands.
.PHONY: run test bench

# Build the web app and start the server on the embedded SQLite store.
run:
	scripts/run

# Every test (formatting, clippy, Rust suites, schemathesis, web, browser).
test:
	scripts/test

# The benchmark suite (issue 7): writes bench/RESULTS.md. Not part of the tests.
bench:
	bench/run
