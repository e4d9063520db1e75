/// <reference types="vitest/config" />
import { writeFileSync } from 'node:fs'
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

export default defineConfig({
  plugins: [react(), keepDist],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
    // Emit every asset as a file: a strict CSP (img-src 'self') must not break the default kart.
    assetsInlineLimit: 0,
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/testing/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
  },
})
