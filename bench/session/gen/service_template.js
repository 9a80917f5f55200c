// ---- block: head
'use strict'
// __NAME__: a small JSON API over an in-memory store (__A__, __B__, __C__), run on loopback.
// Logs: logs/access.log (one line per request) and logs/app.log (startup, stats, warnings,
// errors with their stack). Time is the service's own clock: it starts at __EPOCH__ and moves
// by what each request takes, so a run with the same seed and traffic writes the same logs.
const http = require('node:http')
const fs = require('node:fs')
const path = require('node:path')

const LOG_DIR = path.join(__dirname, '..', 'logs')
const UPSTREAM_TIMEOUT_MS = __UPSTREAM_TIMEOUT__
const SLOW_QUERY_MS = __SLOW_MS__
const PAGE_SIZE = __PAGE_SIZE__
const RATE_LIMIT = __RATE_LIMIT__ // requests per client in a 10 s window
const STATS_EVERY = __STATS_EVERY__

let seedState = __SEED__ >>> 0
function random () {
  seedState = (seedState + 0x6d2b79f5) >>> 0
  let t = seedState
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
let clock = Date.parse('__EPOCH__')
const advance = (ms) => { clock += Math.round(ms) }
const counts = { total: 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 }
const windows = new Map()

// ---- block: logging
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
function clf (ms) {
  const d = new Date(ms)
  const p = (n) => String(n).padStart(2, '0')
  return `${p(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`
}

function appLog (level, component, message) {
  const line = `${new Date(clock).toISOString()} ${level.padEnd(5)} [${component}] ${message}\n`
  fs.appendFileSync(path.join(LOG_DIR, 'app.log'), line)
}

function client (req) {
  return req.headers['x-forwarded-for'] || req.socket.remoteAddress
}

function send (res, status, payload) {
  const body = JSON.stringify(payload)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
  const req = res.req
  const user = req.headers.authorization ? 'admin' : '-'
  const line = `${client(req)} - ${user} [${clf(req.started)}] "${req.method} ${req.url} HTTP/1.1" ${status} ` +
    `${Buffer.byteLength(body)} "-" "${req.headers['user-agent'] || '-'}" rt=${clock - req.started}ms\n`
  fs.appendFileSync(path.join(LOG_DIR, 'access.log'), line)
  counts.total += 1
  counts[`${String(status)[0]}xx`] += 1
  if (counts.total % STATS_EVERY === 0) {
    appLog('INFO', 'stats', `served ${counts.total} requests: 2xx ${counts['2xx']}, 3xx ${counts['3xx']}, 4xx ${counts['4xx']}, 5xx ${counts['5xx']}`)
  }
}

// ---- block: store
const OWNERS = [__OWNERS__]
const STATUSES = [__STATUSES__]
const __A__ = new Map()
const __B__ = new Map()
const __C__ = new Map()
for (let id = 1; id <= __NA__; id += 1) {
  const owner = random() < __NULL_RATE__ ? null : { name: OWNERS[Math.floor(random() * OWNERS.length)], region: `r${1 + Math.floor(random() * 6)}` }
  __A__.set(id, { id, __OWNER__: owner, total: Math.round(random() * 50000) / 100, status: STATUSES[Math.floor(random() * STATUSES.length)] })
}
for (let id = 1; id <= __NC__; id += 1) {
  __C__.set(id, { id, sku: `SKU-${String(1000 + id * 7).padStart(5, '0')}`, quantity: Math.floor(random() * 400) })
}

// ---- handler: getA
function get__UA__ (req, res, id) {
  const record = __A__.get(id)
  if (!record) return send(res, 404, { error: `__SA__ ${id} not found` })
  advance(4 + random() * 30)
  const label = `${record.__OWNER__.name.toUpperCase()} (${record.__OWNER__.region})`
  return send(res, 200, { ...record, label })
}

// ---- handler: listA
function list__UA__ (req, res, query) {
  const status = query.get('status')
  const rows = [...__A__.values()].filter((r) => !status || r.status === status)
  advance(6 + rows.length / 10)
  return send(res, 200, { count: rows.length, rows: rows.slice(0, PAGE_SIZE).map((r) => r.id) })
}

// ---- handler: listC
function list__UC__ (req, res, query) {
  const page = Number(query.get('page') || 1)
  if (!Number.isInteger(page) || page < 1) return send(res, 400, { error: `bad page ${query.get('page')}` })
  // Every page rescans the table from the start: the cost grows with the page number.
  const cost = 8 + page * page * __COST_K__
  advance(cost)
  if (cost >= SLOW_QUERY_MS) {
    appLog('WARN', 'db', `slow query: scan __C__ page=${page} took ${Math.round(cost)}ms (limit ${SLOW_QUERY_MS}ms)`)
  }
  const rows = [...__C__.values()].slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)
  return send(res, 200, { page, rows })
}

// ---- handler: createB
function create__UB__ (req, res, body) {
  let input
  try {
    input = JSON.parse(body)
  } catch (err) {
    appLog('WARN', 'http', `invalid JSON body on ${req.method} ${req.url} from ${client(req)}: ${err.message}`)
    return send(res, 400, { error: 'invalid JSON body' })
  }
  if (typeof input.__FIELD_B__ !== 'number') return send(res, 422, { error: '__FIELD_B__ must be a number' })
  try {
    callUpstream('__UPSTREAM__', __UP_FAIL__)
  } catch (err) {
    appLog('ERROR', '__UPSTREAM__', `${req.method} ${req.url} failed: ${err.message}`)
    return send(res, 504, { error: 'upstream timeout' })
  }
  const id = __B__.size + 1
  __B__.set(id, { id, ...input })
  return send(res, 201, { id })
}

// ---- handler: upstream
function callUpstream (name, failRate) {
  if (random() < failRate) {
    advance(UPSTREAM_TIMEOUT_MS)
    throw new Error(`upstream ${name} timed out after ${UPSTREAM_TIMEOUT_MS}ms`)
  }
  advance(20 + random() * 80)
}

// ---- handler: admin
function adminStats (req, res) {
  if (!req.headers.authorization) return send(res, 401, { error: 'missing credentials' })
  if (req.headers.authorization !== 'Bearer __TOKEN__') return send(res, 403, { error: 'forbidden' })
  return send(res, 200, { ...counts, __A__: __A__.size, __B__: __B__.size })
}

// ---- block: route
function rateLimited (req) {
  const key = client(req)
  const w = windows.get(key) || { start: clock, n: 0 }
  if (clock - w.start >= 10000) { w.start = clock; w.n = 0 }
  w.n += 1
  windows.set(key, w)
  return w.n > RATE_LIMIT
}

function route (req, res, body) {
  const url = new URL(req.url, 'http://svc.local')
  const parts = url.pathname.split('/').filter(Boolean)
  if (url.pathname === '/health') return send(res, 200, { ok: true })
  if (rateLimited(req)) return send(res, 429, { error: 'too many requests' })
  if (parts[0] !== 'api') return send(res, 404, { error: `no route for ${req.method} ${url.pathname}` })
  if (parts[1] === 'admin' && parts[2] === 'stats') return adminStats(req, res)
  if (parts[1] === '__A__' && parts.length === 3 && req.method === 'GET') return get__UA__(req, res, Number(parts[2]))
  if (parts[1] === '__A__' && parts.length === 2 && req.method === 'GET') return list__UA__(req, res, url.searchParams)
  if (parts[1] === '__B__' && parts.length === 2 && req.method === 'POST') return create__UB__(req, res, body)
  if (parts[1] === '__C__' && parts.length === 2 && req.method === 'GET') return list__UC__(req, res, url.searchParams)
  return send(res, 404, { error: `no route for ${req.method} ${url.pathname}` })
}

// ---- block: server
const server = http.createServer((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    advance(Number(req.headers['x-think-ms'] || 0))
    req.started = clock
    advance(1 + random() * 3)
    try {
      route(req, res, Buffer.concat(chunks).toString('utf8'))
    } catch (err) {
      const stack = err.stack.split('\n').slice(0, 4).join('\n')
      appLog('ERROR', 'http', `unhandled error on ${req.method} ${req.url}: ${stack}`)
      send(res, 500, { error: 'internal error' })
    }
  })
})

fs.mkdirSync(LOG_DIR, { recursive: true })
server.listen(0, '127.0.0.1', () => {
  appLog('INFO', 'server', `__NAME__ __VERSION__ started (__NA__ __A__, __NC__ __C__, upstream __UPSTREAM__)`)
  process.stdout.write(`READY ${server.address().port}\n`)
})
process.on('SIGTERM', () => {
  appLog('INFO', 'server', `shutting down after ${counts.total} requests`)
  server.close(() => process.exit(0))
})
