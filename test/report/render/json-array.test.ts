import fc from 'fast-check'
import { expect, test } from 'vitest'
import { jsonArrayWriter } from '../../../src/report/render/json-array.ts'

test('chunked text is exactly JSON.stringify of the whole array, whatever the chunk size', () => {
  fc.assert(
    fc.property(fc.array(fc.jsonValue()), fc.integer({ min: 1, max: 7 }), (items, perChunk) => {
      const writer = jsonArrayWriter<unknown>(perChunk)
      for (const item of items) writer.push(item)
      expect(writer.text()).toBe(JSON.stringify(items))
    }),
  )
})

test('an empty writer writes an empty array, and text() leaves the writer empty', () => {
  const writer = jsonArrayWriter<number>(2)
  expect(writer.text()).toBe('[]')
  for (const n of [1, 2, 3]) writer.push(n)
  expect(writer.text()).toBe('[1,2,3]')
  expect(writer.text()).toBe('[]')
})
