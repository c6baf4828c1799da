import { useState } from 'react'
import { levelPesos, PRICE_LEVEL_FACTORS } from '#app/modules/catalog/pricing.ts'
import { formatCOP, pesosToCentavos } from '#app/utils/money.ts'
import { Field, fieldErrorId, fieldHintId } from './field.tsx'
import { inputClass } from './form-message.tsx'

const money = (pesos: number) => formatCOP(pesosToCentavos(Number.isFinite(pesos) ? pesos : 0))
const asNumber = (text: string) => (text.trim() === '' ? 0 : Number(text))

/**
 * The "Precios" block of the product form (spec §5), mirroring the server live: levels 2–4 are
 * 80/70/60 % of level 1, level 5 starts at 40 % but can be typed, the profit is level 1 minus cost.
 */
export function PriceFields({
  initial,
  blankZeros = false,
}: {
  initial: { cost: number; level1: number; level5: number; discountPercent: number }
  /** A new product's prices start empty (a "0" would have to be deleted before typing). */
  blankZeros?: boolean
}) {
  const shown = (pesos: number) => (blankZeros && pesos === 0 ? '' : String(pesos))
  const [cost, setCost] = useState(shown(initial.cost))
  // The loaded cost the typed one is based on, posted as `loadedCost`: the server changes the cost
  // only when the admin typed another, and refuses when a movement moved it meanwhile.
  const [baseCost, setBaseCost] = useState(initial.cost)
  const [seenCost, setSeenCost] = useState(initial.cost)
  if (initial.cost !== seenCost) {
    // Reloaded data (after a save): an untouched or just-saved cost follows it; a pending edit
    // keeps the cost it was typed against.
    setSeenCost(initial.cost)
    if (asNumber(cost) === baseCost || asNumber(cost) === initial.cost) {
      setCost(String(initial.cost))
      setBaseCost(initial.cost)
    }
  }
  const [level1, setLevel1] = useState(shown(initial.level1))
  const [level5, setLevel5] = useState(shown(initial.level5))
  const level1Pesos = asNumber(level1)
  const profit = level1Pesos - asNumber(cost)
  return (
    <fieldset className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <legend className="mb-2 text-base font-semibold">Precios</legend>
      <input type="hidden" name="loadedCost" value={baseCost} />
      <PesosField id="product-cost" name="cost" label="Costo" value={cost} onChange={setCost} />
      <PesosField
        id="product-level1"
        name="level1"
        label="Precio nivel 1"
        value={level1}
        onChange={(value) => {
          setLevel1(value)
          setLevel5(value.trim() === '' ? '' : String(levelPesos(asNumber(value), PRICE_LEVEL_FACTORS[5])))
        }}
      />
      <PesosField
        id="product-level5"
        name="level5"
        label="Precio nivel 5"
        value={level5}
        onChange={setLevel5}
      />
      <Field id="product-discount" label="Descuento (%)">
        <input
          id="product-discount"
          name="discountPercent"
          type="number"
          min={0}
          max={100}
          step={1}
          defaultValue={initial.discountPercent}
          className={inputClass}
        />
      </Field>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:col-span-2 lg:col-span-4 lg:grid-cols-4">
        {([2, 3, 4] as const).map((level) => (
          <div key={level}>
            <dt className="text-gray-600">Nivel {level}</dt>
            <dd data-testid={`level${level}`} className="font-medium">
              {money(levelPesos(level1Pesos, PRICE_LEVEL_FACTORS[level]))}
            </dd>
          </div>
        ))}
        <div>
          <dt className="text-gray-600">Ganancia</dt>
          <dd
            data-testid="profit"
            className={`font-semibold ${profit < 0 ? 'text-red-700' : 'text-green-700'}`}
          >
            {money(profit)}
          </dd>
        </div>
      </dl>
    </fieldset>
  )
}

/** A peso amount with centavos, typed by the admin (the server converts it to integer centavos). */
export function PesosField(props: {
  id: string
  name: string
  label: string
  value: string
  onChange: (value: string) => void
  readOnly?: boolean
  required?: boolean
  hint?: string
  error?: string | null
  className?: string
}) {
  const describedBy =
    [props.hint ? fieldHintId(props.id) : null, props.error ? fieldErrorId(props.id) : null]
      .filter(Boolean)
      .join(' ') || undefined
  return (
    <Field
      id={props.id}
      label={props.label}
      hint={props.hint}
      error={props.error}
      className={props.className}
    >
      <input
        id={props.id}
        name={props.name}
        type="number"
        min={0}
        step="0.01"
        inputMode="decimal"
        value={props.value}
        placeholder="0"
        readOnly={props.readOnly}
        required={props.required}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => props.onChange(event.target.value)}
        className={`${inputClass} ${props.readOnly ? 'bg-gray-100 text-gray-700' : ''}`}
      />
    </Field>
  )
}
