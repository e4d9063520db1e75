/// <reference types="vitest/config" />
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants } from 'node:zlib'
import { fileURLToPath, URL } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

// The Go server (cmd/pitlane serve) answers /api and the live hub /api/ws.
const apiTarget = process.env.PITLANE_API ?? 'http://127.0.0.1:8080'
const proxy = {
  '/api': { target: apiTarget, changeOrigin: true, ws: true },
}

// The Go binary embeds `all:dist`; dist/.keep lets it compile before the first web build,
// so every build puts it back after Vite empties the folder.
const keepDist: Plugin = {
  name: 'pitlane-keep-dist',
  apply: 'build',
  closeBundle() {
    writeFileSync(fileURLToPath(new URL('./dist/.keep', import.meta.url)), '')
  },
}

// A brotli copy (name.br) of every text file, which the Go server sends to browsers that take br
// (about 12 % smaller than its gzip of the same file).
const brotliCopies: Plugin = {
  name: 'pitlane-brotli',
  apply: 'build',
  closeBundle() {
    const dist = fileURLToPath(new URL('./dist', import.meta.url))
    for (const name of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
      if (!/\.(js|css|svg|html|json|txt|webmanifest)$/.test(name)) continue
      const file = join(dist, name)
      const br = brotliCompressSync(readFileSync(file), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
      writeFileSync(`${file}.br`, br)
    }
  },
}

// The entry stylesheet goes into index.html as a <style>: no render-blocking request before the
// first paint (the CSP allows inline styles). Route chunks still load their own CSS files.
const inlineEntryCss: Plugin = {
  name: 'pitlane-inline-entry-css',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, ctx) {
      return html.replace(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g, (link, name: string) => {
        const asset = ctx.bundle?.[name]
        if (!asset || asset.type !== 'asset') return link
        return `<style>${String(asset.source)}</style>`
      })
    },
  },
}

// The app's scripts are fetched at low priority (fetchpriority="low" on the entry and its
// modulepreloads; the Go server does the same for a page's own chunk). Every page's head is
// painted from the HTML the server sends, so no script should hold that paint back: at high
// priority the browser (and Lighthouse's model of a slow phone) treats them as wanted before it.
const lowPriorityScripts: Plugin = {
  name: 'pitlane-low-priority-scripts',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler: (html) =>
      html
        .replace(/<script type="module" (?!fetchpriority)/g, '<script type="module" fetchpriority="low" ')
        .replace(/<link rel="modulepreload" (?!fetchpriority)/g, '<link rel="modulepreload" fetchpriority="low" '),
  },
}

// page-preloads.json: for each page of src/app/routes, the JavaScript files its chunk needs that
// index.html does not already load (the chunk and its static imports), by the route file's name.
// The Go server names them in modulepreload links of the HTML it sends for that page, so the
// page's code downloads beside the entry instead of after it has run.
const pagePreloads: Plugin = {
  name: 'pitlane-page-preloads',
  apply: 'build',
  generateBundle(_options, bundle) {
    const chunks = Object.values(bundle).filter((c) => c.type === 'chunk')
    const byFile = new Map(chunks.map((c) => [c.fileName, c]))
    const withImports = (file: string, into = new Set<string>()) => {
      if (into.has(file)) return into
      into.add(file)
      for (const dep of byFile.get(file)?.imports ?? []) withImports(dep, into)
      return into
    }
    const entry = new Set<string>()
    for (const c of chunks) if (c.isEntry) withImports(c.fileName, entry)
    const pages: Record<string, string[]> = {}
    for (const c of chunks) {
      const name = c.facadeModuleId?.match(/\/src\/app\/routes\/([\w-]+)\.tsx$/)?.[1]
      if (!name || !c.isDynamicEntry) continue
      pages[name] = [...withImports(c.fileName)].filter((f) => !entry.has(f)).map((f) => `/${f}`)
    }
    this.emitFile({ type: 'asset', fileName: 'page-preloads.json', source: JSON.stringify(pages, null, 1) })
  },
}

export default defineConfig({
  plugins: [react(), keepDist, inlineEntryCss, lowPriorityScripts, brotliCopies, pagePreloads],
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      // wouter's shim for Reacts before 18 (src/lib/use-sync-external-store.ts).
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: fileURLToPath(new URL('./src/lib/use-sync-external-store.ts', import.meta.url)) },
    ],
  },
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
    // Every browser the site supports preloads modules itself (Safari since 17): no polyfill in
    // the first page's JavaScript.
    modulePreload: { polyfill: false },
    // Emit every asset as a file: a strict CSP (img-src 'self') must not break the default kart.
    assetsInlineLimit: 0,
  },
  test: {
    globals: true,
    css: false,
    restoreMocks: true,
    // Above the waits' 10 s (src/testing/setup.ts), so that a slow wait on a
    // loaded machine fails as a wait, with what the page showed, or passes.
    testTimeout: 15000,
    // Components (*.test.tsx) run in jsdom; logic (*.test.ts) in Node, which starts in a
    // fraction of jsdom's time (a .test.ts that needs a DOM says so in its first line:
    // `// @vitest-environment jsdom`).
    projects: [
      {
        extends: true,
        test: { name: 'components', include: ['src/**/*.test.tsx'], environment: 'jsdom', setupFiles: ['./src/testing/setup.ts'] },
      },
      {
        extends: true,
        test: { name: 'logic', include: ['src/**/*.test.ts'], environment: 'node', setupFiles: ['./src/testing/setup-logic.ts'] },
      },
    ],
  },
})
