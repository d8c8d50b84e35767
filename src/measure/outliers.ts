/**
 * Outliers by the modified z-score of Iglewicz and Hoaglin (1993): M = 0.6745 (x - median) / MAD, flagged when
 * |M| > 3.5. Median and MAD are not dragged by the outliers themselves, unlike mean and sd. Flagged runs are reported,
 * never dropped: the caller decides (and the report shows) what to make of them.
 */
import { mean } from 'simple-statistics'
import { median, medianAbsoluteDeviation } from './estimators.ts'
import { toSorted } from './samples.ts'

/** Iglewicz and Hoaglin's recommended cut-off. */
export const MODIFIED_Z_THRESHOLD = 3.5
/** Phi^-1(3/4): makes MAD / 0.6745 estimate sd for normal data. */
const MAD_TO_Z = 0.6745
/** When MAD is 0 (over half the runs equal), the mean absolute deviation x sqrt(pi/2) stands in for sd. */
const MEAN_AD_TO_SD = 1.2533141373155003

export interface FlaggedOutlier {
  /** Index in the samples as given (not sorted), so the run can be found. */
  index: number
  value: number
  score: number
}

export interface OutlierReport {
  method: 'modified-z-mad' | 'modified-z-meanad' | 'none-no-spread'
  threshold: number
  median: number
  /** Spread measure used in the denominator: MAD, or mean absolute deviation when MAD is 0. */
  spread: number
  outliers: FlaggedOutlier[]
}

function scaleFor(
  values: readonly number[],
  center: number,
  mad: number,
): Pick<OutlierReport, 'method' | 'spread'> & {
  sdEstimate: number
} {
  if (mad > 0) return { method: 'modified-z-mad', spread: mad, sdEstimate: mad / MAD_TO_Z }
  const meanAd = mean(values.map((value) => Math.abs(value - center)))
  if (meanAd > 0) return { method: 'modified-z-meanad', spread: meanAd, sdEstimate: meanAd * MEAN_AD_TO_SD }
  return { method: 'none-no-spread', spread: 0, sdEstimate: 0 }
}

/**
 * Flags the samples whose modified z-score exceeds `threshold` in absolute value.
 * @param values samples in run order (indices in the report refer to this order)
 * @throws MeasureInputError when a value is not finite or the sample is empty.
 */
export function flagOutliers(values: readonly number[], threshold = MODIFIED_Z_THRESHOLD): OutlierReport {
  const sorted = toSorted(values, 'outlier samples')
  const center = median(sorted)
  const { method, spread, sdEstimate } = scaleFor(values, center, medianAbsoluteDeviation(sorted))
  const outliers: FlaggedOutlier[] = []
  if (sdEstimate > 0) {
    values.forEach((value, index) => {
      const score = (value - center) / sdEstimate
      if (Math.abs(score) > threshold) outliers.push({ index, value, score })
    })
  }
  return { method, threshold, median: center, spread, outliers }
}
