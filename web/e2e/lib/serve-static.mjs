// A tiny static server for web/dist with the SPA fallback, for the mocked screenshot run.
import { createServer } from 'node:http'
import { readFile, stat } from 'node:fs/promises'
import { extname, join, normalize } from 'node:path'

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain',
  '.json': 'application/json',
}

export function serveDist(root) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x')
    let file = normalize(join(root, decodeURIComponent(url.pathname)))
    if (!file.startsWith(root)) {
      res.writeHead(403).end()
      return
    }
    try {
      if (!(await stat(file)).isFile()) throw new Error('dir')
    } catch {
      file = join(root, 'index.html')
    }
    const body = await readFile(file)
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' })
    res.end(body)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` })))
}
