// The signed-in player's notification choices and browsers (/api/me/notifications).
import { api } from '@/lib/api-client'

export type NotificationChoice = { kind: string; label: string; push: boolean; discord: boolean }

export type NotificationSettings = {
  kinds: NotificationChoice[]
  push: { available: boolean; public_key: string; devices: number }
  discord: { available: boolean; linked: boolean }
}

export const notificationsKey = ['me', 'notifications'] as const

export const getNotifications = () => api.get<NotificationSettings>('/me/notifications')

export const chooseNotifications = (kinds: Pick<NotificationChoice, 'kind' | 'push' | 'discord'>[]) =>
  api.put<NotificationSettings>('/me/notifications', { kinds })

export type PushSubscriptionBody = { endpoint: string; keys: { p256dh: string; auth: string } }

export const subscribePush = (sub: PushSubscriptionBody) => api.post<{ message: string }>('/me/notifications/push', sub)

export const unsubscribePush = (endpoint: string) => api.delete<void>('/me/notifications/push', { endpoint })

/** An unsubscribe link's action: its signed token turns its kind off, signed in or not. */
export const turnOff = (token: string) => api.post<{ kind: string; message: string }>('/notifications/off', { token })
