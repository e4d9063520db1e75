// wouter imports the use-sync-external-store shim for Reacts before 18; React 19 has the hook
// itself, so the build points the shim here (vite.config.ts) and ships no copy of it.
export { useSyncExternalStore } from 'react'
