export async function loader() {
  return Response.json({ shipping: null })
}
