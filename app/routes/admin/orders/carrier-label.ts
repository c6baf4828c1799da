export async function loader() {
  return new Response('Pendiente', { status: 404 })
}
