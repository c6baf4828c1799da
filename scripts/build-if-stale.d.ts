export function buildIfStale(buildDir: string, options?: { quiet?: boolean }): void
