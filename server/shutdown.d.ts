import type { Server } from 'node:http'

export function closeGracefully(server: Server, graceMs: number): Promise<void>
