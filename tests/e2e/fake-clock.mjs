// A fake clock for a test's own server process, loaded with `node --import ./tests/e2e/fake-clock.mjs`.
// Only when VITRINA_FAKE_NOW is set (an instant Date.parse reads, e.g. 2026-12-14T10:00:00-05:00):
// `new Date()` and `Date.now()` then read that instant plus the time since the process started, so
// the clock keeps ticking; a Date made from a given value is that value. Timers, `performance.now()`
// and the database's own `now()` keep the real time. Production code knows nothing of it.
const fakeNow = process.env.VITRINA_FAKE_NOW

if (fakeNow) {
  const RealDate = Date
  const target = RealDate.parse(fakeNow)
  if (Number.isNaN(target)) throw new Error(`VITRINA_FAKE_NOW no es una fecha: ${fakeNow}`)
  const offset = target - RealDate.now()
  const now = () => RealDate.now() + offset

  globalThis.Date = new Proxy(RealDate, {
    // `new Date()` is now; `new Date(value)` and `new Date(y, m, …)` are what they always were.
    construct(Target, args, newTarget) {
      return Reflect.construct(Target, args.length ? args : [now()], newTarget)
    },
    // `Date()` called without `new` is today's text.
    apply() {
      return new RealDate(now()).toString()
    },
    get(Target, property, receiver) {
      if (property === 'now') return now
      return Reflect.get(Target, property, receiver)
    },
  })
}
