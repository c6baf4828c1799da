import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto'
import express from 'express'
import { and, eq, isNull, lt, or, gt, sql } from 'drizzle-orm'
import Provider, { type Adapter, type AdapterPayload, type Configuration, type JWK } from 'oidc-provider'
import type { DbOrTx } from '#app/db/client.server.ts'
import { localProviderRecords } from './schema.ts'
import { keptFileText } from '#app/utils/kept-file.server.ts'

/**
 * A real OpenID Connect provider for local use and tests, mounted at /dev-idp when no Google
 * credentials are configured (never in production). Its sign-in page accepts any e-mail, so the app
 * runs the same Authorization Code + PKCE + nonce code path it runs against Google.
 */
export type LocalProviderOptions = {
  /** Full issuer URL, including the mount path, e.g. http://localhost:3000/dev-idp. */
  issuer: string
  clientId: string
  clientSecret: string
  redirectUris: string[]
  /** Where the signing and cookie keys are kept across restarts; generated in memory if omitted. */
  keysFile?: string
  /** Shown on the sign-in page: the address that is an admin out of the box. */
  hintEmail?: string
  /** Where sign-ins in progress are kept, shared by every web process of the shop. */
  db: DbOrTx
  /** The answer's Content-Security-Policy nonce, for the page's own stylesheet. */
  nonceOf?: (res: express.Response) => string
}

type LocalAccount = { sub: string; email: string; email_verified: boolean; name: string; picture: string }

export function createLocalProvider(options: LocalProviderOptions): express.Router {
  const issuer = options.issuer.replace(/\/$/, '')
  const mountPath = new URL(issuer).pathname.replace(/\/$/, '')
  const keys = loadOrCreateKeys(options.keysFile)
  const accounts = databaseAdapter(options.db, 'LocalAccount')
  const nonceOf = options.nonceOf ?? (() => '')

  const configuration: Configuration = {
    adapter: (name: string) => databaseAdapter(options.db, name),
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [keys.signingKey] },
    cookies: { keys: keys.cookieKeys },
    scopes: ['openid', 'email', 'profile'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    // Put the e-mail and name in the id token itself, as Google does.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    clientBasedCORS: () => false,
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
      Grant: 600,
    },
    interactions: { url: (_ctx, interaction) => `${mountPath}/interaccion/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const account = (await accounts.find(sub)) as LocalAccount | undefined
      if (!account) return undefined
      return { accountId: sub, claims: () => ({ ...account }) }
    },
    // A first-party client: no consent screen; the grant covers the requested scopes.
    async loadExistingGrant(ctx) {
      const grantId =
        ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId)
      if (grantId) return ctx.oidc.provider.Grant.find(grantId)
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      })
      grant.addOIDCScope('openid email profile')
      await grant.save()
      return grant
    },
    async renderError(ctx, out) {
      ctx.type = 'html'
      ctx.body = page(
        'Error del proveedor local',
        `<p>${escapeHtml(String(out.error_description ?? out.error ?? 'Error'))}</p>`,
        // The provider runs under Express: its Node response is Express's.
        nonceOf(ctx.res as express.Response),
      )
    },
  }
  const provider = new Provider(issuer, configuration)

  const router = express.Router()
  const form = express.urlencoded({ extended: false, limit: '10kb' })

  router.get('/interaccion/:uid', async (req, res, next) => {
    try {
      const details = await provider.interactionDetails(req, res)
      res.type('html').send(signInPage(mountPath, nonceOf(res), details.uid, options.hintEmail))
    } catch (error) {
      next(error)
    }
  })

  router.post('/interaccion/:uid/login', form, async (req, res, next) => {
    try {
      const details = await provider.interactionDetails(req, res)
      const body = (req.body ?? {}) as Record<string, unknown>
      const email = typeof body.email === 'string' ? body.email.trim() : ''
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
        res
          .status(400)
          .type('html')
          .send(
            signInPage(mountPath, nonceOf(res), details.uid, options.hintEmail, 'Escribe un correo válido.'),
          )
        return
      }
      const name = (typeof body.name === 'string' && body.name.trim()) || email.split('@')[0]!
      const sub = `local-${createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 20)}`
      const account: LocalAccount = {
        sub,
        email,
        email_verified: body.email_verified === 'on',
        name,
        picture: `${issuer}/avatar/${encodeURIComponent(name.charAt(0).toUpperCase())}.svg`,
      }
      await accounts.upsert(sub, account, ACCOUNT_TTL_SECONDS)
      // No single sign-on: each sign-in starts afresh, so switching e-mails never meets the
      // provider's "sign the previous account out first" detour.
      if (details.session?.uid) {
        await (await provider.Session.findByUid(details.session.uid))?.destroy()
        delete details.session
        await details.persist()
      }
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: sub, remember: false } },
        { mergeWithLastSubmission: false },
      )
    } catch (error) {
      next(error)
    }
  })

  router.post('/interaccion/:uid/cancelar', async (req, res, next) => {
    try {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'El usuario canceló el inicio de sesión' },
        { mergeWithLastSubmission: false },
      )
    } catch (error) {
      next(error)
    }
  })

  router.get('/avatar/:file', (req, res) => {
    const letter = (req.params.file.replace(/\.svg$/, '').charAt(0) || '?').toUpperCase()
    res
      .type('image/svg+xml')
      .set('Cache-Control', 'public, max-age=86400')
      .send(
        `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">` +
          `<rect width="96" height="96" rx="48" fill="#9c5d3b"/>` +
          `<text x="48" y="62" font-family="system-ui,sans-serif" font-size="44" fill="#fff" text-anchor="middle">${escapeHtml(letter)}</text></svg>`,
      )
  })

  router.use(provider.callback())
  return router
}

function signInPage(mountPath: string, nonce: string, uid: string, hintEmail?: string, error?: string) {
  const action = `${mountPath}/interaccion/${encodeURIComponent(uid)}`
  return page(
    'Iniciar sesión (proveedor local)',
    `<p class="note">Proveedor de identidad local, solo para desarrollo y pruebas: escribe cualquier correo.
      En producción se inicia sesión con Google.</p>
    ${hintEmail ? `<p class="hint">Administrador de demostración: <strong data-testid="hint-email">${escapeHtml(hintEmail)}</strong></p>` : ''}
    ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
    <form method="post" action="${action}/login">
      <label>Correo electrónico
        <input type="email" name="email" required autocomplete="email" autofocus value="${escapeHtml(hintEmail ?? '')}">
      </label>
      <label>Nombre
        <input type="text" name="name" autocomplete="name" maxlength="80">
      </label>
      <label class="check"><input type="checkbox" name="email_verified" checked> Correo verificado</label>
      <button type="submit">Continuar</button>
    </form>
    <form method="post" action="${action}/cancelar">
      <button type="submit" class="secondary">Cancelar</button>
    </form>`,
    nonce,
  )
}

function page(title: string, body: string, nonce: string) {
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style${nonce ? ` nonce="${escapeHtml(nonce)}"` : ''}>
  body { font-family: system-ui, sans-serif; background: #fdf6f0; color: #2b2420; margin: 0; padding: 1.5rem; }
  main { max-width: 24rem; margin: 2rem auto; background: #fff; border-radius: 1rem; padding: 1.5rem; box-shadow: 0 1px 4px #0002; }
  h1 { font-size: 1.25rem; margin-top: 0; }
  label { display: block; margin: .75rem 0; font-weight: 600; }
  input[type=email], input[type=text] { display: block; width: 100%; box-sizing: border-box; margin-top: .25rem; padding: .5rem; font: inherit; border: 1px solid #b7744f; border-radius: .5rem; }
  .check { font-weight: 400; }
  button { width: 100%; padding: .6rem; margin-top: .5rem; font: inherit; font-weight: 600; border: 0; border-radius: 999px; background: #9c5d3b; color: #fff; cursor: pointer; }
  button.secondary { background: #f8e6d6; color: #7d472b; }
  .note { font-size: .9rem; color: #5b4c44; }
  .hint { background: #f8e6d6; padding: .5rem .75rem; border-radius: .5rem; }
  .error { color: #b91c1c; font-weight: 600; }
</style>
</head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body>
</html>`
}

function escapeHtml(value: string) {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )
}

type Keys = { signingKey: JWK; cookieKeys: string[] }

/** The provider's own RSA signing key and cookie keys, kept in a file so restarts keep them. */
function loadOrCreateKeys(file: string | undefined): Keys {
  const create = (): Keys => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    return {
      signingKey: {
        ...(privateKey.export({ format: 'jwk' }) as JWK),
        kid: randomBytes(8).toString('hex'),
        alg: 'RS256',
        use: 'sig',
      },
      cookieKeys: [randomBytes(32).toString('base64url')],
    }
  }
  if (!file) return create()
  const usable = (text: string) => {
    try {
      const stored = JSON.parse(text) as Keys
      return stored.signingKey?.kty === 'RSA' && Boolean(stored.cookieKeys?.length)
    } catch {
      return false
    }
  }
  // Instances sharing DATA_DIR must sign and check with the same keys, even when they start together.
  return JSON.parse(keptFileText(file, () => JSON.stringify(create()), usable)) as Keys
}

/** An account typed on the sign-in page lives as long as the provider's longest record. */
const ACCOUNT_TTL_SECONDS = 600

/**
 * The provider's records of one model (Session, Grant, AuthorizationCode…) in the database, so a
 * sign-in begun in one web process can finish in another. Expired rows are never read, and are
 * swept whenever a record is written.
 */
function databaseAdapter(db: DbOrTx, model: string): Adapter {
  const t = localProviderRecords
  const live = or(isNull(t.expiresAt), gt(t.expiresAt, sql`now()`))
  const findWhere = async (condition: ReturnType<typeof eq>) => {
    const [row] = await db
      .select({ payload: t.payload })
      .from(t)
      .where(and(eq(t.model, model), condition, live))
      .limit(1)
    return row?.payload as AdapterPayload | undefined
  }
  return {
    async upsert(id, payload, expiresIn) {
      await db.delete(t).where(lt(t.expiresAt, sql`now()`))
      const values = {
        payload: payload as Record<string, unknown>,
        grantId: payload.grantId ?? null,
        uid: payload.uid ?? null,
        userCode: payload.userCode ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      }
      await db
        .insert(t)
        .values({ model, id, ...values })
        .onConflictDoUpdate({ target: [t.model, t.id], set: values })
    },
    find: (id) => findWhere(eq(t.id, id)),
    findByUid: (uid) => findWhere(eq(t.uid, uid)),
    findByUserCode: (userCode) => findWhere(eq(t.userCode, userCode)),
    async consume(id) {
      await db
        .update(t)
        .set({
          payload: sql`${t.payload} || jsonb_build_object('consumed', extract(epoch from now())::bigint)`,
        })
        .where(and(eq(t.model, model), eq(t.id, id)))
    },
    async destroy(id) {
      await db.delete(t).where(and(eq(t.model, model), eq(t.id, id)))
    },
    async revokeByGrantId(grantId) {
      await db.delete(t).where(eq(t.grantId, grantId))
    },
  }
}
