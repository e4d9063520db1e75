// Passkeys in the browser: the server's WebAuthn options (JSON, binary fields in base64url) turned
// into navigator.credentials calls, and the authenticator's answer back into JSON for the server.
// Browsers that know PublicKeyCredential.parse*FromJSON and toJSON() use them; others get the same
// conversion by hand.

type Json = Record<string, unknown>

export const passkeysSupported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function'

function fromB64url(s: string): ArrayBuffer {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4)
  const bin = atob(b64)
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out.buffer
}

function toB64url(buf: ArrayBuffer | ArrayBufferView): string {
  const bytes = buf instanceof ArrayBuffer ? new Uint8Array(buf) : new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength)
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

const descriptors = (list: unknown) => (Array.isArray(list) ? list.map((d: Json) => ({ ...d, id: fromB64url(d.id as string) })) : undefined)

type PKC = typeof PublicKeyCredential & {
  parseCreationOptionsFromJSON?: (o: Json) => PublicKeyCredentialCreationOptions
  parseRequestOptionsFromJSON?: (o: Json) => PublicKeyCredentialRequestOptions
}

function creationOptions(o: Json): PublicKeyCredentialCreationOptions {
  const pkc = window.PublicKeyCredential as PKC
  if (pkc.parseCreationOptionsFromJSON) return pkc.parseCreationOptionsFromJSON(o)
  const user = o.user as Json
  return {
    ...(o as object),
    challenge: fromB64url(o.challenge as string),
    user: { ...(user as object), id: fromB64url(user.id as string) },
    excludeCredentials: descriptors(o.excludeCredentials),
  } as unknown as PublicKeyCredentialCreationOptions
}

function requestOptions(o: Json): PublicKeyCredentialRequestOptions {
  const pkc = window.PublicKeyCredential as PKC
  if (pkc.parseRequestOptionsFromJSON) return pkc.parseRequestOptionsFromJSON(o)
  return { ...(o as object), challenge: fromB64url(o.challenge as string), allowCredentials: descriptors(o.allowCredentials) } as unknown as PublicKeyCredentialRequestOptions
}

function credentialJSON(c: PublicKeyCredential): Json {
  const withJSON = c as PublicKeyCredential & { toJSON?: () => Json }
  if (typeof withJSON.toJSON === 'function') return withJSON.toJSON()
  const r = c.response as AuthenticatorAttestationResponse & AuthenticatorAssertionResponse
  const response: Json = { clientDataJSON: toB64url(r.clientDataJSON) }
  if ('attestationObject' in r && r.attestationObject) {
    response.attestationObject = toB64url(r.attestationObject)
    response.transports = typeof r.getTransports === 'function' ? r.getTransports() : []
  }
  if ('authenticatorData' in r && r.authenticatorData) {
    response.authenticatorData = toB64url(r.authenticatorData)
    response.signature = toB64url(r.signature)
    if (r.userHandle) response.userHandle = toB64url(r.userHandle)
  }
  return { id: c.id, rawId: toB64url(c.rawId), type: c.type, response, clientExtensionResults: c.getClientExtensionResults() }
}

/** The options the server sends: `{ publicKey: {...} }`. */
export type PasskeyOptions = { publicKey: Json }

/** Asks the authenticator for a new passkey; null when the player cancelled. */
export async function createPasskey(options: PasskeyOptions): Promise<Json | null> {
  const c = (await navigator.credentials.create({ publicKey: creationOptions(options.publicKey) })) as PublicKeyCredential | null
  return c ? credentialJSON(c) : null
}

/** Asks the authenticator to sign with one of the account's passkeys; null when cancelled. */
export async function signWithPasskey(options: PasskeyOptions): Promise<Json | null> {
  const c = (await navigator.credentials.get({ publicKey: requestOptions(options.publicKey) })) as PublicKeyCredential | null
  return c ? credentialJSON(c) : null
}

/** A refusal by the browser or the player (NotAllowedError: cancelled or timed out), in words. */
export function passkeyFailure(err: unknown): string {
  if (err instanceof DOMException) {
    if (err.name === 'NotAllowedError') return 'The passkey prompt was closed or timed out.'
    if (err.name === 'InvalidStateError') return 'This device already holds a passkey for your account.'
    return `The browser refused: ${err.message}`
  }
  return ''
}
