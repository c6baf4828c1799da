import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

const VERSION = 'v1'

/**
 * Encrypts channel tokens kept in the database (AES-256-GCM, ADR 0010) with a key derived from
 * SESSION_SECRET, so a copy of the database alone does not give away the seller's account.
 */
export function secretBox(sessionSecret: string) {
  const key = Buffer.from(hkdfSync('sha256', sessionSecret, 'vitrina', 'channel-credentials v1', 32))
  return {
    seal(plain: string): string {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`
    },
    /** The plain text, or null when it was sealed with another key (SESSION_SECRET changed) or altered. */
    open(sealed: string): string | null {
      const [version, payload] = sealed.split('.')
      if (version !== VERSION || !payload) return null
      const bytes = Buffer.from(payload, 'base64url')
      if (bytes.length < 28) return null
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12))
        decipher.setAuthTag(bytes.subarray(12, 28))
        return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')
      } catch {
        return null
      }
    },
  }
}

export type SecretBox = ReturnType<typeof secretBox>
