/** Embed colours, one name each. */
export const COOKIE_BROWN = 0xc8813b;
export const DISCORD_BLURPLE = 0x5865f2;
/** Privacy replies: a calm slate blue, apart from the games' colours. */
export const PRIVACY_BLUE = 0x4a6fa5;
