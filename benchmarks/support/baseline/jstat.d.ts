// jstat ships no types; the one function the bench verdict uses (benchmarks/support/baseline/verdict.ts).
declare module 'jstat' {
  const jstat: {
    jStat: {
      studentt: {
        /** The p-quantile of Student's t distribution with `dof` degrees of freedom. */
        inv(p: number, dof: number): number
      }
    }
  }
  export default jstat
}
