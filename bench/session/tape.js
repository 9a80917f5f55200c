'use strict'
// A small stand-in for the `tape` test harness (not installed here), enough to run the real test
// files of the npm packages the session benchmark works on: test / t.test, equal, deepEqual,
// strictEqual, notEqual, ok, notOk, throws, doesNotThrow, same, notSame, match, fail, skip,
// plan, end, teardown. Prints TAP like tape: "ok N msg", "not ok N msg" with a YAML block
// (operator, expected, actual, at), then "# tests / # pass / # fail" and "# ok" when all passed.
const assert = require('node:assert')
const util = require('node:util')

let count = 0
let passed = 0
let failed = 0
const queue = []
let running = false

const show = (v) => util.inspect(v, { depth: 4, breakLength: Infinity })

function where () {
  const line = (new Error().stack || '').split('\n').find((l) => /\/test\//.test(l) && !/tape/.test(l))
  return line ? line.trim().replace(/^at /, '') : ''
}

function report (ok, msg, operator, expected, actual) {
  count += 1
  if (ok) {
    passed += 1
    console.log(`ok ${count} ${msg}`)
    return
  }
  failed += 1
  console.log(`not ok ${count} ${msg}\n  ---\n    operator: ${operator}\n    expected: ${show(expected)}\n` +
    `    actual:   ${show(actual)}\n    at: ${where()}\n  ...`)
}

function makeT (name) {
  const subtests = []
  const teardowns = []
  let planned = null
  let asserts = 0
  let endResolve
  const ended = new Promise((resolve) => { endResolve = resolve })
  const step = (ok, msg, operator, expected, actual) => {
    asserts += 1
    report(ok, msg, operator, expected, actual)
    if (planned !== null && asserts >= planned) endResolve()
  }
  const deep = (a, b, strict) => {
    try {
      (strict ? assert.deepStrictEqual : assert.deepEqual)(a, b)
      return true
    } catch {
      return false
    }
  }
  const t = {
    name,
    test (n, opts, fn) {
      if (typeof opts === 'function') { fn = opts; opts = {} }
      if (opts && opts.skip) console.log(`# SKIP ${n}`)
      else subtests.push({ name: n, fn })
    },
    plan (k) { planned = k },
    end () { endResolve() },
    teardown (fn) { teardowns.push(fn) },
    comment (m) { console.log(`# ${m}`) },
    equal (a, b, m = 'should be strictly equal') { step(Object.is(a, b) || a === b, m, 'equal', b, a) },
    notEqual (a, b, m = 'should not be strictly equal') { step(a !== b, m, 'notEqual', b, a) },
    deepEqual (a, b, m = 'should be deeply equivalent') { step(deep(a, b, true), m, 'deepEqual', b, a) },
    notDeepEqual (a, b, m = 'should not be deeply equivalent') { step(!deep(a, b, true), m, 'notDeepEqual', b, a) },
    same (a, b, m = 'should be equivalent') { step(deep(a, b, false), m, 'deepLooseEqual', b, a) },
    notSame (a, b, m = 'should not be equivalent') { step(!deep(a, b, false), m, 'notDeepLooseEqual', b, a) },
    ok (v, m = 'should be truthy') { step(!!v, m, 'ok', true, v) },
    notOk (v, m = 'should be falsy') { step(!v, m, 'notOk', false, v) },
    fail (m = 'fail') { step(false, m, 'fail', undefined, undefined) },
    pass (m = 'pass') { step(true, m, 'pass') },
    match (s, re, m = 'should match') { step(re.test(s), m, 'match', re, s) },
    skip (m) { console.log(`ok ${++count} ${m} # SKIP`); passed += 1 },
    throws (fn, exp, m) {
      if (typeof exp === 'string') { m = exp; exp = undefined }
      let threw = false
      let err
      try { fn() } catch (e) { threw = true; err = e }
      let ok = threw
      if (ok && exp instanceof RegExp) ok = exp.test(String(err && err.message ? err.message : err))
      else if (ok && typeof exp === 'function' && exp.prototype !== undefined) ok = err instanceof exp
      step(ok, m || 'should throw', 'throws', exp, err)
    },
    doesNotThrow (fn, m) {
      let err = null
      try { fn() } catch (e) { err = e }
      step(err === null, m || 'should not throw', 'doesNotThrow', undefined, err)
    }
  }
  t.strictEqual = t.equal
  t.equals = t.equal
  t.is = t.equal
  t.deepEquals = t.deepEqual
  t.looseEqual = t.same
  t.error = (e, m = String(e)) => step(!e, m, 'error', undefined, e)
  t.ifError = t.error
  return { t, subtests, teardowns, ended, endResolve, get planned () { return planned } }
}

async function runOne (name, fn) {
  console.log(`# ${name}`)
  const s = makeT(name)
  try {
    const r = fn(s.t)
    if (r && typeof r.then === 'function') { await r; s.endResolve() }
  } catch (e) {
    report(false, String(e && e.stack ? e.stack.split('\n')[0] : e), 'error', undefined, e)
    s.endResolve()
  }
  if (s.subtests.length > 0 && s.planned === null) s.endResolve()
  const timer = setTimeout(() => {
    report(false, `test exited without ending: ${name}`, 'fail')
    s.endResolve()
  }, 5000)
  await s.ended
  clearTimeout(timer)
  for (const sub of s.subtests) await runOne(sub.name, sub.fn)
  for (const f of s.teardowns) await f()
}

async function drain () {
  running = true
  while (queue.length > 0) {
    const { name, fn } = queue.shift()
    await runOne(name, fn)
  }
  running = false
}

function test (name, opts, fn) {
  if (typeof name === 'function') { fn = name; name = '(anonymous)' }
  if (typeof opts === 'function') { fn = opts; opts = {} }
  if (opts && opts.skip) { console.log(`# SKIP ${name}`); return }
  queue.push({ name, fn })
  if (!running) setImmediate(() => { if (!running) drain() })
}
test.skip = (name) => { console.log(`# SKIP ${name}`) }
test.only = test

process.on('beforeExit', () => {
  if (running || queue.length > 0) return
  if (process.exitCode === undefined || process.exitCode === 0) {
    console.log(`\n1..${count}\n# tests ${count}\n# pass  ${passed}` + (failed ? `\n# fail  ${failed}\n` : '\n\n# ok\n'))
    process.exitCode = failed ? 1 : 0
  }
})

module.exports = test
