// Mocked /api and /api/ws for screenshot runs without the Go server (page.route).
const NAMES = ['Blaze', 'Nitro', 'Drift King', 'Vortex', 'Kartana', 'Turbo Tess', 'Skid Row', 'Apex', 'Rocket Raj', 'Lapwing', 'Piston', 'Zoomer']

function avatarSvg(seed) {
  const hues = [210, 250, 180, 330, 30, 140]
  const h = hues[seed % hues.length]
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="hsl(${h} 60% 45%)"/><circle cx="32" cy="26" r="12" fill="#f4f6fb"/><path d="M12 60c4-12 12-16 20-16s16 4 20 16" fill="#f4f6fb"/></svg>`
}

export function makePlayers(n = 12) {
  return Array.from({ length: n }, (_, i) => {
    const kd = Math.round((0.6 + ((i * 37) % 30) / 10) * 100) / 100
    const games = 80 + ((i * 53) % 400)
    return {
      id: i + 1,
      name: NAMES[i % NAMES.length],
      image: i % 3 === 2 ? null : `/api/images/avatar-${i}`,
      s_id: `SK${1000 + i * 7}`,
      kd,
      games_played: games,
      level: 10 + ((i * 11) % 60),
      description: `${NAMES[i % NAMES.length]} races in the PPL since season ${1 + (i % 5)}.`,
      discord_id: NAMES[i % NAMES.length].toLowerCase().replace(/\s/g, '_'),
      is_discord_verified: i % 4 !== 3,
      cart_image: null,
      badges: i === 0 ? [{ id: 1, name: 'Season 3 Winner', icon: 'trophy', color: '#FFD700' }] : i === 4 ? [{ id: 2, name: 'Season 5 Winner', icon: 'crown', color: '#00CED1' }] : [],
      created_at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
    }
  })
}

export function makeTeams(players) {
  return 'ABCDEFGH'.split('').map((letter, i) => ({
    id: i + 1,
    letter,
    name: ['Red Bulls', 'Night Riders', 'Turbo Titans', 'Drift Lords', 'Apex Hunters', 'Neon Wheels', 'Grid Wolves', 'Pit Vipers'][i],
    logo: '',
    captain: i < 5 ? { id: 100 + i, name: ['Captain Ray', 'Mira', 'Ozzy', 'Lena', 'Kofi'][i], image: i % 2 ? null : `/api/images/avatar-${i + 20}` } : null,
    players: i < 3 ? players.slice(i * 3, i * 3 + (5 - i)).map((p, j) => ({ id: p.id, name: p.name, image: p.image, credits: 1100 + ((i + 1) * (j + 3) * 97) % 1100 })) : [],
  }))
}

export const EXTRACTED = {
  discord_username: 'Speedy',
  level: '37',
  kills: '1840',
  deaths: '760',
  total_games: '412',
  sk_id: 'SK4242',
  kd_ratio: '2.42',
  cart_image: null,
}

/**
 * Installs the mocks on a page. `state.user` (or null) is the signed-in user for a request with a
 * token; `state.players` is the registrations list; returns helpers to push live events.
 */
export async function installMocks(page, state) {
  const sockets = new Set()
  let seq = 100
  const json = (route, body, status = 200) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) })

  await page.route('**/api/**', async (route) => {
    const req = route.request()
    const url = new URL(req.url())
    const path = url.pathname.replace(/^\/api/, '')
    const method = req.method()
    const authed = !!req.headers()['authorization']
    const key = `${method} ${path}`
    if (path.startsWith('/images/')) {
      return route.fulfill({ status: 200, contentType: 'image/svg+xml', body: avatarSvg(Number(path.replace(/\D/g, '')) || 0) })
    }
    switch (key) {
      case 'GET /config':
        return json(route, { google_client_id: state.googleClientId ?? '', default_tournament: 'PPL7', extractor: 'ocr' })
      case 'GET /auth/profile':
        return authed && state.user ? json(route, { user: state.user }) : json(route, { message: 'Not signed in' }, 401)
      case 'POST /auth/login': {
        const body = req.postDataJSON()
        if (state.loginError) return json(route, { message: state.loginError }, 401)
        const user = state.loginUser ?? state.user ?? { id: 1, email: body.email, name: 'Player', role: 'user', email_verified: true, discord_username: '', discord_verified: false, sk_stats_verified: false, sk_stats_uploaded: false, tournament_registered: false, stats_data: null }
        state.user = user
        return json(route, { token: 'mock-token', user })
      }
      case 'POST /auth/signup':
        return json(route, { message: 'Account created! Please check your email for OTP verification.' }, 201)
      case 'POST /auth/verify-otp':
        return json(route, { message: 'Email verified successfully! You can now login.' })
      case 'POST /auth/resend-otp':
        return json(route, { message: 'OTP sent successfully!' })
      case 'POST /auth/update-discord-username':
        if (state.user) state.user = { ...state.user, discord_verified: false, discord_username: req.postDataJSON().discordUsername }
        return json(route, { message: 'Discord username updated successfully', user: state.user })
      case 'GET /tournament/registrations':
        return json(route, { tournament: 'PPL7', count: state.players.length, seq, players: state.players })
      case 'GET /tournament/teams':
        return json(route, { tournament: 'PPL7', teams: state.teams })
      case 'GET /tournament/info':
        return json(route, { name: 'PPL7', status: 'registration', registration_open: true, count: state.players.length })
      case 'GET /tournament/status':
        return json(route, { registered: !!state.user?.tournament_registered })
      case 'POST /tournament/register':
        if (state.user) state.user = { ...state.user, tournament_registered: true }
        return json(route, { success: true, registered: true, message: 'Registered for PPL7' })
      case 'POST /tournament/unregister':
        if (state.user) state.user = { ...state.user, tournament_registered: false }
        return json(route, { success: true, registered: false, message: 'You are no longer registered for PPL7.' })
      case 'GET /stats/get':
        return json(route, { success: true, stats: state.savedStats ?? null })
      case 'POST /stats/extract':
        if (state.user) {
          state.savedStats = { sk_id: 'SK4242', level: 37, kills: 1840, deaths: 760, games_played: 412, kd: 2.42, category: 3, cart_image: null, player_name: 'Speedy' }
          state.user = { ...state.user, sk_stats_uploaded: true }
        }
        await new Promise((r) => setTimeout(r, 300))
        return json(route, { success: true, stats: EXTRACTED })
      case 'POST /stats/save':
        return json(route, { success: true, stats: state.savedStats ?? {} })
      case 'GET /deck':
        return json(route, { slide: state.deckSlide ?? 1, seq: 5 })
      case 'POST /deck':
        state.deckSlide = req.postDataJSON().slide
        return json(route, { slide: state.deckSlide, seq: 6 })
      case 'POST /newsletter':
        return json(route, { message: 'Thanks! You are subscribed to Pitlane news.' }, 201)
      default:
        return json(route, { message: `not mocked: ${key}` }, 404)
    }
  })

  await page.routeWebSocket('**/api/ws', (ws) => {
    sockets.add(ws)
    ws.onMessage((msg) => {
      const frame = JSON.parse(String(msg))
      if (frame.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }))
    })
    ws.onClose(() => sockets.delete(ws))
  })

  return {
    push(topic, event, data) {
      seq += 1
      const frame = JSON.stringify({ type: 'event', topic, seq, event, data, ts: new Date().toISOString() })
      for (const ws of sockets) ws.send(frame)
    },
    get socketCount() {
      return sockets.size
    },
  }
}
