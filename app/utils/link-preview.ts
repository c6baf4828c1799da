/**
 * The fetchers that open a link to show its preview, not a person: WhatsApp when a message with the
 * link is written or received, Facebook and Instagram, Telegram, X, Slack, Discord, LinkedIn, Skype,
 * and the search engines' crawlers.
 */
const PREVIEW_AGENTS =
  /WhatsApp|facebookexternalhit|Facebot|meta-externalagent|TelegramBot|Twitterbot|Slackbot|Discordbot|LinkedInBot|SkypeUriPreview|Googlebot|bingbot/i

export const isLinkPreview = (userAgent: string | null) => PREVIEW_AGENTS.test(userAgent ?? '')
