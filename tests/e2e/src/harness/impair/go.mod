module github.com/conclave/tests/e2e/impair

go 1.22
