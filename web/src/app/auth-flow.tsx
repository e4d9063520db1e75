// Loaded on first use: the auth modal with the stats/registration and profile views plugged in.
import { useNavigate } from '@/lib/router'
import { useAppConfig } from '@/config/app-config'
import { tokenStore } from '@/lib/api-client'
import { useSession } from '@/lib/auth'
import type { AuthMode } from '@/lib/window-events'
import { AuthModal } from '@/features/auth/components/auth-modal'
import { SecondFactorPrompt } from '@/features/auth/components/second-factor-prompt'
import { NotificationSettings } from '@/features/notifications/components/notification-settings'
import { ProfileView } from '@/features/profile/components/profile-view'
import { ProfileRegistration } from './flows/profile-registration'
import { RegisterFlow, type PendingRegistration } from './flows/register-flow'
import { useRegistrationWindow } from './flows/registration-window'
import { OWN_CARD_LINK } from './links'

type Props = {
  open: boolean
  mode: AuthMode
  openKey: number
  onClose: () => void
  pending: PendingRegistration
  setPending: (p: PendingRegistration) => void
}

export default function AuthFlow({ open, mode, openKey, onClose, pending, setPending }: Props) {
  const config = useAppConfig()
  const { user, logout, setSession } = useSession()
  const navigate = useNavigate()
  const season = useRegistrationWindow(user)
  return (
    <AuthModal
      open={open}
      mode={mode}
      openKey={openKey}
      onClose={onClose}
      googleClientId={config.google_client_id}
      pendingRegister={!!pending?.register}
      registrationOpen={season.open}
      renderStats={(ctx) => <RegisterFlow key={`${openKey}-${ctx.user?.id ?? 'anon'}`} {...ctx} pending={pending} setPending={setPending} />}
      renderProfile={(ctx) => (
        <ProfileView
          user={ctx.user}
          onUploadStats={ctx.showStats}
          onTournament={() => {
            ctx.close()
            if (ctx.user.tournament_registered) navigate(OWN_CARD_LINK.to, { state: OWN_CARD_LINK.state })
            else navigate('/tournament')
          }}
          onLogout={() => {
            logout()
            ctx.close()
          }}
          registration={<ProfileRegistration user={ctx.user} season={season} onRegister={ctx.showStats} onLeave={ctx.close} />}
          notifications={<NotificationSettings />}
          confirmSecondFactor={
            ctx.user.security
              ? (intro) => (
                  <SecondFactorPrompt security={ctx.user.security!} intro={intro} onVerified={(u) => setSession(tokenStore.get() ?? '', u)} />
                )
              : undefined
          }
        />
      )}
    />
  )
}
