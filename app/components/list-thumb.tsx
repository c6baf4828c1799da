/** The small square picture beside a name in a list of links (the category menu, search results). */
export function ListThumb({ src }: { src: string }) {
  return (
    <img src={src} alt="" width={40} height={40} className="size-10 rounded-lg object-cover" loading="lazy" />
  )
}
