import { useRouteLoaderData } from 'react-router'
import { seo } from '#app/utils/seo.ts'
import type { loader as layoutLoader } from './layout'
import type { Route } from './+types/data-policy'
import { DATA_POLICY_PATH } from '#app/utils/paths.ts'

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: 'Política de tratamiento de datos personales',
    description: 'Cómo tratamos tus datos personales según la Ley 1581 de 2012.',
    path: DATA_POLICY_PATH,
  })

/** Ley 1581 de 2012 (habeas data): the published policy the checkout consent links to. */
export default function DataPolicy() {
  const layout = useRouteLoaderData<typeof layoutLoader>('routes/tienda/layout')
  const store = layout?.store
  const seller = store?.seller
  const methods = layout?.paymentMethods ?? []
  const providers = [
    ...(methods.includes('mercadopago') ? ['Mercado Pago'] : []),
    ...(methods.includes('wompi') ? ['Wompi'] : []),
  ]
  return (
    <article className="prose mx-auto max-w-3xl py-6 text-gray-800 [&_h2]:mt-6 [&_h2]:text-lg [&_h2]:font-semibold [&_p]:mt-2 [&_li]:ml-5 [&_li]:list-disc">
      <h1 className="text-2xl font-semibold">Política de tratamiento de datos personales</h1>
      <p>
        {seller?.legalName}, NIT {seller?.nit}, con domicilio en {seller?.address}, es responsable del
        tratamiento de los datos personales que nos entregas al comprar en {store?.storeName}, conforme a la
        Ley 1581 de 2012 y el Decreto 1377 de 2013.
      </p>
      <h2>Qué datos tratamos y para qué</h2>
      <ul>
        <li>
          Nombre, identificación, teléfono, correo y dirección: para procesar, enviar y facturar tu pedido y
          contactarte sobre él. Cuando tu pedido va con transportadora, los compartimos con ella (y con la
          plataforma de guías con la que la contratamos) solo para entregarlo; y para tu factura electrónica,
          con el proveedor autorizado que la envía a la DIAN.
        </li>
        {providers.length ? (
          <li>
            Datos del pago en línea: los trata {providers.join(' o ')}, en su propia página; nosotros solo
            recibimos el estado, el medio y la referencia del pago.
          </li>
        ) : null}
        {methods.includes('transferencia') ? (
          <li>
            El comprobante de una transferencia o pago Bre-B que nos envíes: lo guardamos con tu pedido, solo
            para confirmar el pago, y solo lo ve el equipo de la tienda.
          </li>
        ) : null}
        <li>
          La dirección IP desde la que haces el pedido: para que nadie aparte sin pagar ni confirmar las
          últimas unidades de un producto (limitamos los pedidos pendientes por teléfono y por conexión).
        </li>
        <li>
          Si escribes tu teléfono en el formulario de pedido y marcas la autorización, pero no terminas el
          pedido: guardamos tu nombre, teléfono y correo (lo que hayas escrito) y los productos de tu carrito,
          para escribirte por WhatsApp y ayudarte a terminarlo, con un enlace que los vuelve a poner en tu
          carrito. Si desmarcas la autorización antes de enviar, lo borramos; si no, lo borramos a los 30 días
          (o antes, si nos lo pides).
        </li>
        <li>
          Datos de navegación y eventos de compra: para medir y mejorar la tienda y nuestra publicidad, solo
          si lo autorizas (ver abajo).
        </li>
      </ul>
      <h2 id="cookies">Cookies, analítica y tu consentimiento</h2>
      <p>
        La primera vez que nos visitas te preguntamos, por separado y sin nada marcado, si autorizas la
        analítica y la publicidad. Antes de que respondas no medimos nada ni cargamos ningún código de
        seguimiento. Puedes cambiar tu elección cuando quieras en «Preferencias de privacidad», al pie de cada
        página.
      </p>
      <ul>
        <li>
          Tu elección se guarda en tu navegador (cookie <code>vitrina_consent</code>, por un año) con la
          versión de esta política y un identificador aleatorio. En nuestro registro de autorizaciones
          guardamos esa misma información y la fecha, sin datos que te identifiquen, como prueba de tu
          autorización.
        </li>
        <li>
          Analítica, solo si la aceptas: el nombre del botón o enlace de la tienda en el que haces clic, la
          página que visitas y los segundos que pasas en ella. Se guardan únicamente como totales por mes (por
          ejemplo, «agregar-carrito: 120 clics en noviembre»), sin tu IP ni ningún identificador, así que no
          pueden asociarse contigo; los conservamos como estadística de la tienda. Tu dirección IP solo se usa
          unos minutos, en memoria, para impedir que un programa infle las cifras o llene el registro de
          autorizaciones.
        </li>
        <li>
          También con la analítica, y solo con ella: de dónde llegaste en la primera página de tu visita, es
          decir, los datos de campaña del enlace (<code>utm_source</code>, <code>utm_medium</code> y{' '}
          <code>utm_campaign</code>, por ejemplo los de un anuncio o de nuestro perfil de Instagram) y el
          nombre del sitio que te trajo (por ejemplo, instagram.com, nunca la dirección completa). Se guarda
          en tu navegador (cookie <code>vitrina_campana</code>) hasta que lo cierras y, si haces un pedido,
          con el pedido, para saber qué campañas traen ventas. Si retiras la analítica, la cookie se borra y
          los pedidos siguientes no lo guardan.
        </li>
        <li>
          Publicidad en Meta (Facebook e Instagram), solo si la aceptas: el píxel de Meta registra las páginas
          que ves y cuando buscas, agregas al carrito, nos escribes por WhatsApp, vas a pagar o compras, y
          nuestro servidor envía esos mismos eventos a Meta con tu dirección IP, tu navegador y los
          identificadores de Meta (cookies <code>_fbp</code> y <code>_fbc</code>); en la compra añade tu
          correo, teléfono, nombre, apellido, ciudad y departamento convertidos con SHA-256 (un resumen que no
          deja leer el dato) y el país. Meta los usa para medir y mostrar nuestros anuncios. Lo que guardamos
          del pedido para ese envío se borra al enviarlo, y los eventos en espera de envío (con tu IP,
          navegador y cookies de Meta) se borran de nuestros registros; en ambos casos a más tardar a los 8
          días.
        </li>
        <li>
          Tu carrito se guarda en tu navegador (cookie <code>vitrina_carrito</code>, por 30 días) solo con el
          código y la cantidad de cada producto: la tienda la necesita para funcionar y no requiere tu
          autorización. Si usas un botón del carrito antes de que la página termine de cargar, la cookie{' '}
          <code>vitrina_aviso_carrito</code> guarda por dos minutos el mensaje que verás en el carrito.
        </li>
        <li>
          Los equipos con los que el personal entra a la administración llevan la cookie{' '}
          <code>vitrina_staff</code>, para que sus visitas nunca se cuenten.
        </li>
      </ul>
      <p>
        Para retirar tu autorización elige «Rechazar todo» en «Preferencias de privacidad»: desde ese momento
        no medimos nada más. Si además quieres que borremos tu registro de autorización, escríbenos a{' '}
        {seller?.email}.
      </p>
      <h2>Tus derechos</h2>
      <p>
        Puedes conocer, actualizar, rectificar y suprimir tus datos, revocar la autorización y presentar
        quejas ante la Superintendencia de Industria y Comercio. Escríbenos a {seller?.email} o por WhatsApp
        al +{seller?.phone}; te respondemos en máximo 10 días hábiles (consultas) o 15 días hábiles
        (reclamos).
      </p>
      <h2 id="retracto-y-reversion">Retracto y reversión del pago</h2>
      <p>
        Cada pedido tiene su página: el enlace «Sigue tu pedido aquí» que te mostramos al comprar, o «Consulta
        tu pedido» al pie de cada página con el número del pedido y los últimos 4 dígitos de tu teléfono. Allí
        ves su estado y la guía del envío, y puedes:
      </p>
      <ul>
        <li>
          Retractarte de la compra (Ley 1480 de 2011, art. 47) dentro de los 5 días hábiles siguientes a la
          entrega: devuelves el producto en el estado en que lo recibiste, por tu cuenta, y te devolvemos todo
          lo pagado, sin descuentos, dentro de los 30 días calendario siguientes.
        </li>
        <li>
          Pedir la reversión de un pago en línea (Ley 1480 de 2011, art. 51; Decreto 587 de 2016) dentro de
          los 5 días hábiles siguientes a cuando supiste del motivo: fraude, una compra que no hiciste, un
          producto que no recibiste, que no corresponde a lo que pediste o que llegó defectuoso. Avisa también
          al emisor de tu medio de pago.
        </li>
      </ul>
      <p>
        Guardamos tu solicitud, el motivo que escribas y nuestra respuesta con el pedido, y te avisamos por
        WhatsApp.
      </p>
      <h2>Conservación y seguridad</h2>
      <p>
        Guardamos los datos de tus pedidos mientras sea necesario para cumplir obligaciones legales y
        contables, con acceso restringido al personal autorizado.
      </p>
    </article>
  )
}
