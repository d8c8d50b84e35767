/**
 * Compile-time guards that a zod schema and the TypeScript type it mirrors stay the same shape: `tsc` fails when
 * either side changes without the other (the runner's RunRecord is defined in src/pipeline, the schema here).
 */
export type Assignable<From, To> = [From] extends [To] ? true : false
export type MutuallyAssignable<A, B> = Assignable<A, B> extends true ? Assignable<B, A> : false
export const typesAgree = <T extends true>(check: T): T => check
