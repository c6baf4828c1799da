/**
 * "Ayuda" (issue 27): the owner's guide of the back office, in Spanish, as data the page
 * (app/routes/admin/help.tsx) draws. It describes only what the shop does today: each text was
 * checked against the routes, modules and README when written; change it with the feature it
 * describes. Text between backticks shows as code (commands, file names).
 */
import { averageCostAfterEntry } from '#app/modules/inventory/average-cost.ts'
import { ROLE_DESCRIPTIONS, ROLE_LABELS, ROLES } from '#app/modules/auth/roles.ts'
import { formatCOP } from '#app/utils/money.ts'
import {
  ADMIN_CATEGORIES_PATH,
  ADMIN_PATH,
  ADMIN_PRODUCTS_PATH,
  ADMIN_PROFILE_PATH,
} from '#app/utils/paths.ts'
import {
  ADMIN_CHANNELS_PATH,
  ADMIN_MARKETING_PATH,
  ADMIN_MESSAGES_PATH,
  ADMIN_ORDERS_PATH,
  ADMIN_PROMOTIONS_PATH,
  ADMIN_REPORTS_PATH,
  ADMIN_SALES_PATH,
  ADMIN_SECURITY_PATH,
  ADMIN_SEO_PATH,
  ADMIN_SETTINGS_PATH,
  ADMIN_TEAM_PATH,
} from '#app/utils/admin-paths.ts'

/** Every anchor of the guide: its parts and the sub-parts the header's "?" may point at. */
export const HELP_ANCHORS = [
  'inicio',
  'productos',
  'entradas-y-salidas',
  'pedidos',
  'usuarios',
  'ventas',
  'reportes',
  'configuraciones',
  'canales',
  'categorias',
  'descuentos',
  'marketing',
  'seo',
  'mensajes',
  'perfil',
  'seguridad',
  'rutina-diaria',
  'costo-promedio',
  'cuando-algo-falla',
  'copias-de-seguridad',
] as const
export type HelpAnchor = (typeof HELP_ANCHORS)[number]

export type HelpBlock =
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; items: readonly string[] }
  /** Numbered steps, in order. */
  | { kind: 'steps'; items: readonly string[] }
  /** A formula or a worked example, set apart. */
  | { kind: 'box'; lines: readonly string[] }
  /** A sub-heading inside a part; with an id, an anchor of its own. */
  | { kind: 'heading'; text: string; id?: HelpAnchor }

export type HelpSection = {
  id: HelpAnchor
  title: string
  /** The back-office page this part is about: the page links to it (for whom may open it). */
  path?: string
  blocks: readonly HelpBlock[]
}

const p = (text: string): HelpBlock => ({ kind: 'paragraph', text })
const list = (...items: string[]): HelpBlock => ({ kind: 'list', items })
const steps = (...items: string[]): HelpBlock => ({ kind: 'steps', items })
const heading = (text: string, id?: HelpAnchor): HelpBlock =>
  id ? { kind: 'heading', text, id } : { kind: 'heading', text }

/**
 * The worked example of "Costo promedio y kárdex", worked out with the inventory's own formula
 * (app/modules/inventory/average-cost.ts), so the figures the owner reads are the ones the kardex
 * would show.
 */
export const AVERAGE_COST_EXAMPLE = (() => {
  const stock = 10
  const cost = 2_000_000 // centavos: $ 20.000
  const quantity = 5
  const unitCost = 2_600_000 // centavos: $ 26.000
  const newStock = stock + quantity
  return {
    stock,
    cost,
    quantity,
    unitCost,
    newStock,
    total: stock * cost + quantity * unitCost,
    result: averageCostAfterEntry(stock, cost, quantity, unitCost),
  }
})()

const example = AVERAGE_COST_EXAMPLE

/** The parts about each section of the menu, in the menu's order. */
export const HELP_SECTIONS: readonly HelpSection[] = [
  {
    id: 'inicio',
    title: 'Inicio',
    path: ADMIN_PATH,
    blocks: [
      p(
        'El tablero del día: el valor del inventario y las unidades en stock (cada rol ve solo sus cifras) y tres contadores que abren su lista: "Pedidos por confirmar" (contra entrega sin confirmar), "Transferencias por confirmar" (revisa tu banco) y "Pedidos por enviar" (pagados o confirmados que no han salido).',
      ),
      p(
        'Si un cliente pide retracto o reversión del pago, aparece "Solicitudes de clientes por responder" con su plazo. "Tareas fallidas" muestra lo que el sistema no logró hacer solo (mira "Cuando algo falla").',
      ),
    ],
  },
  {
    id: 'productos',
    title: 'Productos',
    path: ADMIN_PRODUCTS_PATH,
    blocks: [
      p(
        'Cada tarjeta del inventario muestra Stock, Reservado (apartado por pedidos sin enviar), Disponible (lo que se puede vender), precio y costo según tu rol, ubicaciones y si está activo en Mayor y Detal. Busca por nombre o SKU; los filtros quedan guardados en tu navegador. La tienda en línea muestra un producto con Detal activo y unidades disponibles.',
      ),
      heading('Crear y editar'),
      p(
        '"Crear producto" pide nombre, descripción, al menos una categoría y una imagen principal. Al escribir el precio nivel 1, los niveles 2, 3 y 4 quedan en 80, 70 y 60 % y el 5 en 40 % (este se puede cambiar); "Ganancia" es nivel 1 menos costo. El SKU se crea solo y el stock empieza en 0. Un producto con movimientos o pedidos no se elimina: para ocultarlo, desactiva Mayor y Detal.',
      ),
      heading('Entradas, salidas y ubicaciones', 'entradas-y-salidas'),
      p(
        '"Entrada" suma la mercancía que llega; "Salida" saca unidades por fuera de un pedido (daño, muestra, uso propio). Elige el producto y escribe cantidad, costo o precio unitario y ubicación; recibo y nota son opcionales. Los pedidos no necesitan salida a mano: al enviarlos, se hace sola.',
      ),
      list(
        'La ubicación tiene el formato P1-C1-A1-E1-X1-Y1-Z1 (la de fábrica); la entrada la crea si no existe. En una salida debe existir y tener las unidades, y desaparece cuando queda en 0.',
        'La salida va al costo promedio; "Editar Precio" permite otro valor, pero cambia el costo promedio.',
        'Una salida no puede tomar unidades reservadas por pedidos.',
        'Con el rol Bodega no se pide costo ni precio: todo va al costo promedio.',
      ),
    ],
  },
  {
    id: 'pedidos',
    title: 'Gestión de pedidos',
    path: ADMIN_ORDERS_PATH,
    blocks: [
      p(
        'La lista muestra los pedidos abiertos, los más nuevos primero; "Pagados", "Pendientes por pagar" y "Mostrar" la filtran, y se busca por número, nombre o teléfono.',
      ),
      p(
        'Estados: "pendiente de pago" (contra entrega, o un pago que aún no llega), "pagado" (Mercado Pago y Wompi lo marcan solos; la transferencia, tú), "Completado" (entregado) y "cancelado" (sus unidades vuelven al inventario). Aparte, cada pedido dice si está "Enviado" y, si es contra entrega, "Confirmado".',
      ),
      heading('Acciones del pedido'),
      list(
        '"Confirmar por WhatsApp" abre el chat con el pedido escrito; cuando el cliente responda, pulsa "Confirmado". Sin confirmar, un contra entrega se cancela solo al vencer su plazo (48 horas de fábrica; el pedido muestra "Se libera en…").',
        '"Imprimir guía" saca la hoja de despacho: productos con su ubicación, dirección, teléfono y valor a cobrar.',
        '"Marcar como Enviado" (transportadora y guía, opcionales) descuenta las unidades. Con transportadora configurada, "Generar guía" compra la guía y marca el pedido como enviado.',
        '"Completado" cierra el pedido entregado. "Cancelado" pide un motivo; si el pedido ya había salido, sus unidades vuelven como entrada.',
        '"Marcar como pagado" es para transferencias y pagos que recibiste tú.',
      ),
      heading('Devoluciones y reclamos'),
      p(
        'Desde la página de su pedido, el cliente puede pedir el retracto (hasta 5 días hábiles después de la entrega) o la reversión de un pago en línea; llega a Inicio y al pedido con su plazo. Al aceptarla, el pedido queda cancelado, aunque esté completado, y las unidades vuelven al inventario. En un retracto pagado en línea, el reembolso se pide solo; en contra entrega o transferencia escribes cómo devolviste el dinero. "Rechazar" pide un motivo, que el cliente verá.',
      ),
      heading('Facturas electrónicas'),
      p(
        'Con la facturación electrónica configurada, la factura sale sola (al confirmarse un pago en línea, o al completar un contra entrega) o con "Emitir factura", según elijas en Configuraciones. El pedido muestra número, CUFE, PDF y XML, o el motivo del rechazo. Una devolución, o una cancelación después del pago, genera la nota crédito.',
      ),
    ],
  },
  {
    id: 'usuarios',
    title: 'Usuarios',
    path: ADMIN_TEAM_PATH,
    blocks: [
      p('El Dueño invita al equipo y le da un rol:'),
      list(...ROLES.map((role) => `${ROLE_LABELS[role]}: ${ROLE_DESCRIPTIONS[role]}`)),
      p(
        'Escribe el correo de Google de la persona, elige el rol, pulsa "Invitar" y mándale la invitación por WhatsApp o por correo. Tiene 7 días para entrar; si se vence, usa "Renovar invitación". "Cambiar rol" aplica de inmediato y "Quitar" cierra sus sesiones al instante. Los dueños fijados en la configuración del servidor no se cambian aquí.',
      ),
    ],
  },
  {
    id: 'ventas',
    title: 'Ventas',
    path: ADMIN_SALES_PATH,
    blocks: [
      p(
        'El informe de un rango de fechas (hora de Bogotá; de entrada, el mes en curso): pedidos, unidades, ventas, descuentos, ticket promedio y margen (solo el Dueño), por día y por mes, por método de pago y por departamento, con los más vendidos y cómo les fue a los contra entrega. "Cómo se cuentan estas cifras" explica qué es una venta; "Descargar CSV" baja el mismo rango.',
      ),
      p(
        '"Pagos de estas fechas" lista cada pago de Mercado Pago y Wompi y cada transferencia, con comisión y neto cuando el proveedor los informa. Un pedido pagado dos veces, o cancelado con un pago aprobado, sale marcado con "Reembolsar".',
      ),
    ],
  },
  {
    id: 'reportes',
    title: 'Reportes',
    path: ADMIN_REPORTS_PATH,
    blocks: [
      p(
        'Clics por elemento y visitas por página (con su tiempo promedio) de un mes, las 50 mayores de cada lista. Solo cuentan los visitantes que aceptaron la analítica; las visitas del equipo no se cuentan.',
      ),
    ],
  },
  {
    id: 'configuraciones',
    title: 'Configuraciones',
    path: ADMIN_SETTINGS_PATH,
    blocks: [
      p(
        'Todo se aplica de inmediato en la tienda y en el próximo pedido: el envío (costo, envío gratis desde cierto valor y "Envío por zona", con costo propio y contra entrega sí o no), el WhatsApp, los datos del vendedor y el tiempo de entrega del pie de página, cuántos pedidos sin pagar ni confirmar puede apartar un teléfono o una conexión, los medios de pago (Mercado Pago, Wompi y "Transferencia / Bre-B" con llave, cuenta y plazo), la facturación electrónica, la transportadora, la duración de las sesiones y los banners de inicio. "Últimos cambios" dice quién cambió qué y cuándo.',
      ),
    ],
  },
  {
    id: 'canales',
    title: 'Canales',
    path: ADMIN_CHANNELS_PATH,
    blocks: [
      p(
        'Cada vez que cambian las unidades disponibles de un producto, la tienda le envía la nueva cantidad a MercadoLibre y a Shopify, si están configurados. Cada canal muestra cuántos SKU quedaron "Sincronizado", "Falló", "Sin publicación" (no está publicado en ese canal) u "Omitido".',
      ),
      list(
        '"Últimas fallas": cada SKU con su error y el botón "Reintentar".',
        '"Revisar diferencias": compara lo disponible en la tienda con lo del canal, de a 25 SKU por vez.',
        '"Sincronizar todo": envía todos los productos; úsalo al activar un canal o después de restaurar una copia.',
      ),
    ],
  },
  {
    id: 'categorias',
    title: 'Categorías',
    path: ADMIN_CATEGORIES_PATH,
    blocks: [
      p(
        'Las categorías del menú "Accesorios" de la tienda, con su nombre y una imagen opcional. Solo se elimina una categoría sin productos; la lista dice cuántos tiene cada una.',
      ),
    ],
  },
  {
    id: 'descuentos',
    title: 'Descuentos y Promociones',
    path: ADMIN_PROMOTIONS_PATH,
    blocks: [
      p(
        '"Nueva promoción" crea un código que el cliente escribe en el carrito o una promoción automática: un porcentaje o un valor en pesos sobre el pedido, unas categorías, unos productos o el envío; "lleve N, pague M", o un descuento programado en productos. Puede tener compra mínima, fechas y límite de usos, en total y por cliente.',
      ),
      p(
        'Un pedido lleva máximo un código; las promociones combinables se suman y, si no, el cliente recibe la mejor. La lista muestra estado, usos, ventas y margen (solo el Dueño), con "Editar", "Duplicar", "Pausar" o "Reanudar" y "Terminar ahora". Un pedido ya hecho conserva su descuento.',
      ),
    ],
  },
  {
    id: 'marketing',
    title: 'Marketing',
    path: ADMIN_MARKETING_PATH,
    blocks: [
      p(
        'Las direcciones de los catálogos de productos para Meta (Facebook e Instagram) y para Google, y qué productos dejó por fuera cada uno. Pega cada dirección como fuente de productos en el catálogo de Meta o en Google Merchant Center.',
      ),
      p(
        '"Pedidos sin terminar": quienes dejaron su teléfono y autorización al hacer el pedido y no lo terminaron. "Escribir por WhatsApp" les envía un enlace que vuelve a llenar su carrito; si compran, aparece como recuperado.',
      ),
      p(
        'Pon utm_source, utm_medium y utm_campaign en los enlaces de tus anuncios (?utm_source=instagram&utm_campaign=navidad): "Ventas" muestra qué campaña trajo cada venta.',
      ),
    ],
  },
  {
    id: 'seo',
    title: 'SEO',
    path: ADMIN_SEO_PATH,
    blocks: [
      p(
        'Cómo aparece la tienda en Google y cuando alguien comparte un enlace por WhatsApp. En el formulario de cada producto y de cada categoría, la parte "SEO" tiene el título y el resumen para buscadores (vacíos, se usan el nombre y la descripción) con un contador (Google muestra unos 60 caracteres del título y 155 de la descripción), la URL legible y una vista previa del resultado de Google y de la tarjeta de WhatsApp.',
      ),
      list(
        'La URL de un producto es /producto/SKU/nombre-del-producto: el SKU es la clave y el resto es para las personas (minúsculas, sin tildes, con guiones). Si cambias la URL, los enlaces viejos siguen funcionando: llevan a la nueva con una redirección permanente (301).',
        'La página SEO decide si sitemap.xml lista los productos y las categorías, agrega líneas a robots.txt (User-agent, Allow, Disallow, Sitemap o Crawl-delay, una por línea) y guarda el código de verificación de Google Search Console, que la página de inicio lleva en su etiqueta meta.',
        'Cada producto lleva datos estructurados para Google (nombre, imágenes, precio en COP, disponibilidad y, con una promoción que termina, hasta cuándo vale el precio). Un producto sin fotos no puede mostrarse como ficha de producto en Google: súbele una.',
      ),
    ],
  },
  {
    id: 'mensajes',
    title: 'Mensajes y Notificaciones',
    path: ADMIN_MESSAGES_PATH,
    blocks: [
      p(
        'A qué celulares llega el aviso de cada pedido nuevo, con qué plantilla de WhatsApp, y qué mensajes recibe el cliente cuando su pedido se confirma, sale, se entrega o se cancela (cada uno se activa aparte). Cada plantilla debe estar aprobada en WhatsApp Manager con el mismo nombre, idioma y variables en el orden de la página. "Enviar prueba" manda el aviso de pedido nuevo a los números guardados.',
      ),
      p(
        'Cada mensaje enviado, fallido u omitido queda en el "Historial" del pedido; sin WhatsApp configurado, con el enlace "Enviar por WhatsApp" para mandarlo a mano.',
      ),
    ],
  },
  {
    id: 'perfil',
    title: 'Perfil',
    path: ADMIN_PROFILE_PATH,
    blocks: [
      p(
        'Tu cuenta de Google y tu sesión: cuándo empezó y cuándo vence. De fábrica, una sesión se cierra tras 12 horas sin uso o 7 días después de entrar (el Dueño lo cambia en Configuraciones); luego vuelves a entrar con Google.',
      ),
    ],
  },
  {
    id: 'seguridad',
    title: 'Seguridad',
    path: ADMIN_SECURITY_PATH,
    blocks: [
      p(
        '"Sesiones abiertas" muestra dónde está abierta tu cuenta (el Dueño ve las de todo el equipo): cierra la que no reconozcas. "Inicios de sesión" lista quién entró, cuándo y desde dónde, y los intentos rechazados. "Registro de cambios" (solo el Dueño) guarda cada cambio hecho en la administración, con quién, cuándo, el antes y el después. Los inicios de sesión y los cambios se guardan un año, y el Dueño los baja con "Descargar CSV".',
      ),
    ],
  },
]

/** The parts for the day to day, after the menu's sections. */
export const HELP_TOPICS: readonly HelpSection[] = [
  {
    id: 'rutina-diaria',
    title: 'Rutina diaria',
    blocks: [
      p('Una vuelta en la mañana y otra en la tarde suelen bastar. Empieza en Inicio:'),
      steps(
        'Confirmar. En "Pedidos por confirmar", abre cada contra entrega, pulsa "Confirmar por WhatsApp", revisa con el cliente dirección y productos, y pulsa "Confirmado". En "Transferencias por confirmar", revisa tu banco (o "Ver comprobante") y, si la plata llegó, pulsa "Marcar como pagado".',
        'Empacar. En "Pedidos por enviar", marca los pedidos y pulsa "Imprimir guías de los seleccionados". Toma cada producto de la ubicación que dice la hoja.',
        'Despachar. En cada pedido, pulsa "Generar guía" si hay transportadora configurada (y luego "Imprimir guía de la transportadora"), o escribe transportadora y número de guía y pulsa "Marcar como Enviado". Después, "Avisar el envío por WhatsApp".',
        'Cerrar. Cuando el cliente recibe, pulsa "Completado" (o deja que la transportadora lo complete, si lo activaste en Configuraciones). Si lo rechazó, pulsa "Cancelado" con el motivo "rechazado en la entrega": las unidades vuelven al inventario.',
      ),
      p('Antes de terminar, mira en Inicio las solicitudes de clientes y las tareas fallidas.'),
    ],
  },
  {
    id: 'costo-promedio',
    title: 'Costo promedio y kárdex',
    blocks: [
      p('Cada producto tiene un costo promedio ponderado, que cada entrada vuelve a calcular:'),
      {
        kind: 'box',
        lines: [
          'Nuevo costo = (stock × costo actual + cantidad × costo unitario) ÷ (stock + cantidad)',
          `Ejemplo: tienes ${example.stock} collares a ${formatCOP(example.cost)} y entran ${example.quantity} a ${formatCOP(example.unitCost)}.`,
          `Nuevo costo = (${example.stock} × ${formatCOP(example.cost)} + ${example.quantity} × ${formatCOP(example.unitCost)}) ÷ ${example.newStock} = ${formatCOP(example.total)} ÷ ${example.newStock} = ${formatCOP(example.result)}`,
        ],
      },
      list(
        'El resultado se redondea al centavo.',
        'Una salida al costo promedio (la normal, y la de cada pedido enviado) no cambia el costo.',
        'Una salida con "Editar Precio" sí: (stock × costo − cantidad × precio) ÷ unidades que quedan, sin bajar de 0.',
        'Si sacas todas las unidades, el costo queda en 0 y la siguiente entrada pone el de esa compra.',
        'Cambiar el costo en "Editar" con stock lo reemplaza y queda en el kárdex como "Ajuste de costo".',
        'Una devolución (pedido cancelado después de salir, o retracto aceptado) vuelve a entrar al costo con que salió.',
      ),
      heading('El kárdex'),
      p(
        '"Movimientos", en la tarjeta del producto, muestra cada entrada, salida y ajuste: fecha, cantidad, precio y total, recibo y nota, ubicación, stock y costo promedio después, y quién lo hizo. Las salidas de pedidos llevan el número del pedido como recibo. Filtra con "Desde" y "Hasta"; "Descargar CSV" baja las mismas filas, listas para Excel. Ventas y Bodega lo ven sin precios ni costos.',
      ),
    ],
  },
  {
    id: 'cuando-algo-falla',
    title: 'Cuando algo falla',
    blocks: [
      heading('Tareas fallidas'),
      p(
        'Los avisos de WhatsApp, las sincronizaciones, las notificaciones de pago, las facturas, las guías y los reembolsos se hacen en segundo plano y se reintentan solos. Si igual fallan, salen en "Tareas fallidas" de Inicio con el último error. Resuélvelo a mano y pulsa "Marcar como revisada":',
      ),
      list(
        'Sincronización de un SKU: en Canales, pulsa "Reintentar".',
        'Aviso o mensaje de WhatsApp: el pedido está igual en Gestión de pedidos; solo no llegó el mensaje. Revisa la plantilla en Mensajes y Notificaciones con "Enviar prueba".',
        'Factura o guía: el pedido dice el motivo; corrígelo (por ejemplo, el municipio) y pulsa otra vez "Emitir factura" o "Generar guía". Si dice que revises la cuenta de la transportadora, hazlo antes de generar otra.',
        'Reembolso: el "Historial" del pedido dice por qué no se hizo; devuelve el dinero por otro medio.',
      ),
      heading('Un canal que no sincroniza'),
      p(
        'Un SKU en "Falló" muestra el error de MercadoLibre o Shopify: pulsa "Reintentar". Si falla todo el canal (por ejemplo, una autorización vencida), avisa a quien administra el servidor y, ya resuelto, pulsa "Sincronizar todo". "Sin publicación" no es una falla: ese SKU no está publicado allí.',
      ),
      heading('Un pago que no llegó'),
      list(
        'Mercado Pago y Wompi avisan cuando aprueban un pago y el pedido pasa solo a "pagado". Cada aviso (rechazado, no cubre el total, contracargo) queda en el "Historial" del pedido.',
        'Si el cliente pagó y el pedido sigue "pendiente de pago", busca el pago en tu cuenta del proveedor. Si está aprobado, pulsa "Marcar como pagado", o espera: antes de cancelar, la tienda le vuelve a preguntar al proveedor y, si el pago está aprobado, marca el pedido pagado.',
        'Si nadie paga, el cliente puede "Intentar pagar de nuevo" desde su pedido; pasado el plazo (48 horas de fábrica; un PSE o Nequi en proceso espera un día más) el pedido se cancela y libera sus unidades.',
        'Una transferencia sin comprobante se cancela sola al vencer el plazo de Configuraciones (24 horas de fábrica); con comprobante, espera a que la revises.',
        'Cancelar un pedido pagado en línea no devuelve el dinero: en Ventas › Pagos sale marcado y "Reembolsar" se lo pide a Mercado Pago o Wompi (en Wompi, solo tarjetas; lo demás, desde su panel). Una transferencia se devuelve por transferencia.',
      ),
    ],
  },
  {
    id: 'copias-de-seguridad',
    title: 'Copias de seguridad',
    blocks: [
      p(
        'Una copia guarda en un archivo la base de datos completa (productos, movimientos, pedidos, clientes, configuraciones) y las imágenes y videos del servidor. Se hace en el servidor, desde la terminal; si alguien te ayuda con el servidor, compártele esta parte.',
      ),
      steps(
        'Copiar: en la carpeta de la tienda, `npm run backup`. Queda en `backups/vitrina-<fecha>.tar.gz` (o en el archivo que indiques: `npm run backup -- copia.tar.gz`). Con la base de datos integrada, la de fábrica, detén antes la tienda; con PostgreSQL no hace falta.',
        'Guardar: programa la copia (por ejemplo, cada noche) y lleva los archivos fuera del servidor. Tienen datos personales de los clientes: cuídalos como la tienda misma (Ley 1581).',
        'Restaurar: con la tienda detenida, `npm run restore -- copia.tar.gz`, en una tienda vacía (en una instalación nueva, antes del primer `npm start`). `--replace` restaura encima de una tienda con datos y deja lo anterior aparte (`*.antes-de-restaurar-<fecha>`). Una copia dañada o incompleta se rechaza sin tocar nada.',
      ),
      p(
        'La copia no lleva la configuración del servidor: restaura con el mismo `SESSION_SECRET`, o habrá que autorizar MercadoLibre de nuevo y el equipo volverá a iniciar sesión. Tampoco las imágenes en S3, si la tienda lo usa (las protege el bucket), ni las tareas en cola: después de restaurar, pulsa "Sincronizar todo" en Canales.',
      ),
    ],
  },
]

/** The whole guide in page order. */
export const HELP_GUIDE: readonly HelpSection[] = [...HELP_SECTIONS, ...HELP_TOPICS]

/** Every anchor the guide draws: its parts' ids and its sub-headings' ids. */
export function guideAnchors(guide: readonly HelpSection[] = HELP_GUIDE): string[] {
  return guide.flatMap((section) => [
    section.id,
    ...section.blocks.flatMap((block) => (block.kind === 'heading' && block.id ? [block.id] : [])),
  ])
}
