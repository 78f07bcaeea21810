/** The share of `n` items that part `part` of `parts` computes: [splitFrom(n, p, P), splitFrom(n, p + 1, P)). */
export function splitFrom(n: i32, part: i32, parts: i32): i32 {
  return <i32>((<i64>n * <i64>part) / <i64>parts);
}
