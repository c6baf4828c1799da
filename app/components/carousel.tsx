import { ChevronLeft, ChevronRight } from '#app/components/icons.tsx'
import { HIDDEN_UNTIL_HYDRATED } from '#app/components/hydrate-later.tsx'
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'

/** Spec §9: 5000 ms between slides, 500 ms transition, swipe tolerance 5 px. */
export const CAROUSEL_INTERVAL_MS = 5000
export const CAROUSEL_TRANSITION_MS = 500
const SWIPE_TOLERANCE_PX = 5

/**
 * A carousel on native scroll snapping (ADR 0002): phones swipe with the browser's own scrolling,
 * a mouse can drag (touch emulation), arrows and thumbnails animate over 500 ms, and the last slide
 * leads back to the first.
 */
export function Carousel({
  slides,
  label,
  autoplay = false,
  thumbnails,
  laterSlidesWait = false,
}: {
  slides: ReactNode[]
  label: string
  autoplay?: boolean
  /** Slides after the first wait, with their images, for the page to hydrate (`HIDDEN_UNTIL_HYDRATED`). */
  laterSlidesWait?: boolean
  /** One small image per slide; shown under the carousel when given. */
  thumbnails?: ReactNode[]
}) {
  const track = useRef<HTMLDivElement>(null)
  const animation = useRef(0)
  const [selected, setSelected] = useState(0)
  const selectedRef = useRef(0)
  selectedRef.current = selected
  const [paused, setPaused] = useState(false)
  const count = slides.length

  const goTo = useCallback(
    (index: number) => {
      const element = track.current
      if (!element || count === 0) return
      const target = ((index % count) + count) % count
      const from = element.scrollLeft
      const to = target * element.clientWidth
      cancelAnimationFrame(animation.current)
      setSelected(target)
      if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) {
        element.scrollLeft = to
        return
      }
      // Snapping would fight the animation; it comes back once the slide has arrived.
      element.style.scrollSnapType = 'none'
      const started = performance.now()
      const step = (now: number) => {
        const progress = Math.min(1, (now - started) / CAROUSEL_TRANSITION_MS)
        element.scrollLeft = from + (to - from) * (1 - (1 - progress) ** 3)
        if (progress < 1) animation.current = requestAnimationFrame(step)
        else element.style.scrollSnapType = ''
      }
      animation.current = requestAnimationFrame(step)
    },
    [count],
  )

  useEffect(() => {
    const element = track.current
    if (!element) return
    let frame = 0
    const onScroll = () => {
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(() =>
        setSelected(Math.round(element.scrollLeft / Math.max(1, element.clientWidth))),
      )
    }
    element.addEventListener('scroll', onScroll, { passive: true })
    return () => {
      element.removeEventListener('scroll', onScroll)
      cancelAnimationFrame(frame)
      cancelAnimationFrame(animation.current)
    }
  }, [])

  useEffect(() => {
    if (!autoplay || paused || count < 2) return
    // From the slide the track shows: React may not have rendered the last move's state yet.
    const timer = setInterval(() => {
      const element = track.current
      const shown = element
        ? Math.round(element.scrollLeft / Math.max(1, element.clientWidth))
        : selectedRef.current
      goTo(shown + 1)
    }, CAROUSEL_INTERVAL_MS)
    return () => clearInterval(timer)
  }, [autoplay, paused, count, goTo])

  // Mouse dragging, like a finger: beyond the swipe tolerance it moves slides instead of clicking.
  const drag = useRef<{ x: number; scroll: number; moved: boolean } | null>(null)
  const onPointerDown = (event: React.PointerEvent) => {
    if (event.pointerType !== 'mouse' || event.button !== 0 || !track.current) return
    cancelAnimationFrame(animation.current)
    drag.current = { x: event.clientX, scroll: track.current.scrollLeft, moved: false }
  }
  const onPointerMove = (event: React.PointerEvent) => {
    const state = drag.current
    const element = track.current
    if (!state || !element) return
    const delta = event.clientX - state.x
    if (!state.moved && Math.abs(delta) < SWIPE_TOLERANCE_PX) return
    if (!state.moved) {
      state.moved = true
      element.style.scrollSnapType = 'none'
      element.setPointerCapture(event.pointerId)
    }
    element.scrollLeft = state.scroll - delta
  }
  const onPointerUp = () => {
    const state = drag.current
    const element = track.current
    drag.current = null
    if (!state?.moved || !element) return
    const moved = element.scrollLeft - state.scroll
    const from = Math.round(state.scroll / element.clientWidth)
    goTo(Math.abs(moved) > element.clientWidth * 0.15 ? from + Math.sign(moved) : from)
    // The click that ends a drag must not follow a link in the slide.
    element.addEventListener('click', (click) => click.preventDefault(), { capture: true, once: true })
  }

  return (
    <section
      aria-roledescription="carrusel"
      aria-label={label}
      className="relative"
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div
        ref={track}
        className="flex snap-x snap-mandatory overflow-x-auto overscroll-x-contain rounded-2xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 [scrollbar-width:none] [&::-webkit-scrollbar]:hidden"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onDragStart={(event) => event.preventDefault()}
        data-testid="carousel-track"
        // Keyboard users scroll the slides with the arrow keys once the track has focus.
        tabIndex={0}
      >
        {slides.map((slide, index) => (
          <div
            key={index}
            className={`w-full shrink-0 grow-0 basis-full snap-start ${index > 0 && laterSlidesWait ? HIDDEN_UNTIL_HYDRATED : ''}`}
            role="group"
            aria-roledescription="diapositiva"
            aria-label={`${index + 1} de ${count}`}
          >
            {slide}
          </div>
        ))}
      </div>
      {count > 1 ? (
        <>
          <button
            type="button"
            onClick={() => goTo(selected - 1)}
            aria-label="Anterior"
            className="absolute top-1/2 left-2 -translate-y-1/2 rounded-full bg-white/80 p-2 shadow hover:bg-white"
          >
            <ChevronLeft className="size-5" aria-hidden="true" />
          </button>
          <button
            type="button"
            onClick={() => goTo(selected + 1)}
            aria-label="Siguiente"
            className="absolute top-1/2 right-2 -translate-y-1/2 rounded-full bg-white/80 p-2 shadow hover:bg-white"
          >
            <ChevronRight className="size-5" aria-hidden="true" />
          </button>
        </>
      ) : null}
      {thumbnails && thumbnails.length > 1 ? (
        <div className="mt-3 flex gap-2 overflow-x-auto" data-testid="carousel-thumbnails">
          {thumbnails.map((thumbnail, index) => (
            <button
              key={index}
              type="button"
              onClick={() => goTo(index)}
              aria-label={`Ver diapositiva ${index + 1}`}
              aria-current={index === selected}
              className={`size-16 shrink-0 overflow-hidden rounded-lg border-2 ${index === selected ? 'border-brand-600' : 'border-transparent'}`}
            >
              {thumbnail}
            </button>
          ))}
        </div>
      ) : null}
    </section>
  )
}

/** Spec §2: videos autoplay, loop and stay muted, without controls. */
export function VideoSlide({ src, className }: { src: string; className?: string }) {
  return <video src={src} autoPlay loop muted playsInline className={className} />
}
