/** The Fibonacci series 1, 1, 2, 3, 5, 8, … : fibonacci(1) = fibonacci(2) = 1. */
export function fibonacci(n: number): number {
  let [a, b] = [1, 1];
  for (let i = 1; i < n; i++) [a, b] = [b, a + b];
  return a;
}
