import { AppProvider } from './provider'
import { AppRoutes } from './router'

export function App() {
  return (
    <AppProvider>
      {/* wouter follows the browser's location: no router component around the routes. */}
      <AppRoutes />
    </AppProvider>
  )
}
