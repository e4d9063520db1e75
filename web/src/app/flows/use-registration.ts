// The registration step of the register flow: whether the player is registered, the registration
// itself, and its answer (the popup, with the waitlist's words when the cap is reached).
import { useState } from 'react'
import { errorMessage } from '@/lib/api-client'
import type { User } from '@/lib/auth'
import { useRegister } from '@/features/tournament/api/register'
import type { FlowMessages } from './flow-messages'

export function useRegistration(tournament: string, user: User | null, messages: FlowMessages, msg: { alreadyRegistered: string; registerFailed: string }) {
  const register = useRegister(tournament)
  const [registered, setRegistered] = useState(!!user?.tournament_registered)
  /** Registered just now: the popup shows, with the waitlist's words when the player waits. */
  const [done, setDone] = useState<{ waitlisted: string } | null>(null)
  return {
    registered,
    done,
    registering: register.isPending,
    /** Registers the signed-in player (once). */
    start() {
      messages.setError('')
      messages.setAlert('')
      if (registered) {
        messages.setError(msg.alreadyRegistered)
        return
      }
      register.mutate(undefined, {
        onSuccess: (res) => {
          setRegistered(true)
          setDone({ waitlisted: res?.status === 'waitlisted' ? (res.message ?? '') : '' })
        },
        onError: (err) => messages.setError(errorMessage(err, msg.registerFailed)),
      })
    },
    /** The player unregistered (the server's message says so). */
    unregistered(message: string) {
      messages.setError('')
      setRegistered(false)
      messages.setInfo(message)
    },
  }
}
