import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, test, vi } from 'vitest'
import { keptFileText } from './kept-file.server.ts'

const dirs: string[] = []
afterEach(() => {
  vi.restoreAllMocks()
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})
function fileInNewDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-kept-'))
  dirs.push(dir)
  return path.join(dir, 'auth', 'secret')
}
const long = (text: string) => text.length >= 8

test('the first call writes the text; later calls read it back', () => {
  const file = fileInNewDir()
  expect(keptFileText(file, () => 'primero-1234', long)).toBe('primero-1234')
  expect(keptFileText(file, () => 'segundo-1234', long)).toBe('primero-1234')
  expect(fs.readFileSync(file, 'utf8')).toBe('primero-1234')
  expect(fs.readdirSync(path.dirname(file))).toEqual(['secret'])
})

test('a process that started at the same moment and wrote first wins: both use its text', () => {
  const file = fileInNewDir()
  // The other process writes between this one's read (nothing yet) and its own write.
  const text = keptFileText(
    file,
    () => {
      fs.mkdirSync(path.dirname(file), { recursive: true })
      fs.writeFileSync(file, 'del-otro-proceso')
      return 'de-este-proceso'
    },
    long,
  )
  expect(text).toBe('del-otro-proceso')
  expect(fs.readFileSync(file, 'utf8')).toBe('del-otro-proceso')
  expect(fs.readdirSync(path.dirname(file))).toEqual(['secret'])
})

test('unusable kept text is replaced', () => {
  const file = fileInNewDir()
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, 'corto')
  expect(keptFileText(file, () => 'nuevo-y-largo', long)).toBe('nuevo-y-largo')
  expect(fs.readFileSync(file, 'utf8')).toBe('nuevo-y-largo')
})

test('on a file system without hard links the text is still kept', () => {
  const file = fileInNewDir()
  vi.spyOn(fs, 'linkSync').mockImplementation(() => {
    throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' })
  })
  expect(keptFileText(file, () => 'sin-enlaces-1234', long)).toBe('sin-enlaces-1234')
  expect(keptFileText(file, () => 'otro-texto-1234', long)).toBe('sin-enlaces-1234')
  expect(fs.readdirSync(path.dirname(file))).toEqual(['secret'])
})
