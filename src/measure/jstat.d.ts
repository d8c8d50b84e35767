/** The functions of jStat (jstat 1.9, no types of its own) that src/measure/distributions.ts calls. */
declare module 'jstat' {
  const jStat: {
    studentt: { inv(p: number, dof: number): number }
    centralF: { cdf(x: number, df1: number, df2: number): number }
    normal: { inv(p: number, mean: number, sd: number): number; cdf(x: number, mean: number, sd: number): number }
  }
  export default jStat
}
