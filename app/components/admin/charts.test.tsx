import { renderToStaticMarkup } from 'react-dom/server'
import { expect, test } from 'vitest'
import { BarList, ColumnChart } from './charts.tsx'

const pesos = (value: number) => `$ ${value.toLocaleString('es-CO')}`

test('columns are as tall as their share of a round axis, with every figure in the summary', () => {
  const html = renderToStaticMarkup(
    <ColumnChart
      title="Ingresos por día"
      points={[
        { label: '01', value: 50_000 },
        { label: '02', value: 100_000 },
        { label: '03', value: 0 },
      ]}
      formatValue={pesos}
    />,
  )
  expect(html).toContain('Ingresos por día')
  // The axis is 0–100.000, so the bars are half and all of it high.
  expect(html).toContain('height:50%')
  expect(html).toContain('height:100%')
  expect(html).toContain('01: $ 50.000, 02: $ 100.000, 03: $ 0')
})

test('a negative column hangs below the zero line in red', () => {
  const html = renderToStaticMarkup(
    <ColumnChart
      title="Margen"
      points={[
        { label: 'oct', value: -100 },
        { label: 'nov', value: 100 },
      ]}
      formatValue={String}
    />,
  )
  expect(html).toContain('bg-red-400')
  // Axis −100…100: the zero line is half way up; both bars are half the axis tall.
  expect(html.match(/bottom:50%;height:50%/g)).toHaveLength(1)
  expect(html.match(/bottom:0%;height:50%/g)).toHaveLength(1)
})

test('an empty period says so instead of drawing an axis', () => {
  const html = renderToStaticMarkup(<ColumnChart title="Pedidos" points={[]} formatValue={String} />)
  expect(html).toContain('Sin datos en este periodo.')
  expect(html).not.toContain('role="img"')
})

test('bars are measured against the largest item and show their figure and detail', () => {
  const html = renderToStaticMarkup(
    <BarList
      title="Clics por elemento"
      items={[
        { label: 'agregar-carrito', value: 40, detail: '80 %' },
        { label: 'whatsapp', value: 10 },
      ]}
      formatValue={String}
    />,
  )
  expect(html).toContain('width:100%')
  expect(html).toContain('width:25%')
  expect(html).toContain('80 %')
  expect(renderToStaticMarkup(<BarList title="x" items={[]} formatValue={String} />)).toContain(
    'Sin datos en este periodo.',
  )
})
