import { AppProvider } from './provider'
import { AppRoutes } from './router'
import { RumBeacon } from './rum'

export function App() {
  return (
    <AppProvider>
      {/* wouter follows the browser's location: no router component around the routes. */}
      <AppRoutes />
      <RumBeacon />
    </AppProvider>
  )
}
