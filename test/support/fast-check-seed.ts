import fc from 'fast-check'

// Property tests explore fresh random inputs on every developer run. Under CI (CI=true) they use one fixed seed, or
// FAST_CHECK_SEED, so a landing is decided by the code, not by which inputs a run happened to draw; a failure anywhere
// prints its seed and counterexample, and the same seed reproduces it.
if (process.env.CI === 'true' || process.env.FAST_CHECK_SEED) {
  fc.configureGlobal({ seed: Number(process.env.FAST_CHECK_SEED ?? 20_261_122) })
}
