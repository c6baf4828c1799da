/**
 * Distinctive fake values for every secret setting (app/utils/env.server.ts). The browser tests'
 * build runs with them in its environment, and security.test.ts starts a server of its own with
 * them: no built file nor any page it renders may contain one.
 */
export const FAKE_SECRETS = {
  SESSION_SECRET: 'FAKESECRET-session-5c1d9e0a7b3f4e21',
  GOOGLE_CLIENT_SECRET: 'FAKESECRET-google-3e8a1b6c',
  MP_ACCESS_TOKEN: 'FAKESECRET-mp-access-9f2c4d7e',
  MP_WEBHOOK_SECRET: 'FAKESECRET-mp-webhook-1a5b8c2d',
  WHATSAPP_TOKEN: 'FAKESECRET-whatsapp-6d3e9f1a',
  META_CAPI_TOKEN: 'FAKESECRET-meta-capi-4b7c0d2e',
  ML_CLIENT_SECRET: 'FAKESECRET-ml-client-8e1f3a5b',
  ML_REFRESH_TOKEN: 'FAKESECRET-ml-refresh-2c6d9e0f',
  ML_ACCESS_TOKEN: 'FAKESECRET-ml-access-7a0b4c8d',
  SHOPIFY_ADMIN_TOKEN: 'FAKESECRET-shopify-5e9f2a6b',
  S3_SECRET_ACCESS_KEY: 'FAKESECRET-s3-secret-0d4e8f1a',
  S3_ACCESS_KEY_ID: 'FAKESECRET-s3-key-id-3b7c1d5e',
  FACTUS_CLIENT_SECRET: 'FAKESECRET-factus-client-6f2a9c3e',
  FACTUS_PASSWORD: 'FAKESECRET-factus-password-1d8b4e7a',
}
