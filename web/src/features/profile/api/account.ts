// The signed-in player's own account settings: each write has its file (link-discord, unlink-discord,
// update-discord-name, change-password); the ones that answer the user share this.
import { useQueryClient } from '@tanstack/react-query'
import { userQueryKey, type User } from '@/lib/auth'

/** An answer of the account's settings: a message, and the user as it is now when the server sends it. */
export type AccountAnswer = { message: string; user?: User }

/** After a change of the account: the user as answered (else read again), and the public cards that show it. */
export function useAccountChanged() {
  const qc = useQueryClient()
  return (res: AccountAnswer | undefined) => {
    if (res?.user) qc.setQueryData(userQueryKey, res.user)
    else void qc.invalidateQueries({ queryKey: userQueryKey })
    void qc.invalidateQueries({ queryKey: ['tournament'] })
  }
}
