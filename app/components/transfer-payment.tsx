import { Form, useNavigation } from 'react-router'
import {
  RECEIPT_ACCEPT,
  RECEIPT_FIELD,
  TRANSFER_MESSAGES,
  transferDeadlineText,
  UPLOAD_RECEIPT_INTENT,
} from '#app/modules/payment/transfer.ts'
import { formatCOP } from '#app/utils/money.ts'

/** Where and how much to pay (as `transferInstructionsOf` gives it); null: nowhere saved now. */
export type TransferInstructionsView = {
  brebKey: string
  account: string
  amount: number
  reference: number
  deadline: string
} | null

/**
 * A transfer order still unpaid, as the buyer reads it (the success page, their order page): the
 * shop's Bre-B key or account, the exact amount, the reference and the deadline, and the form that
 * sends the receipt. The form is a plain multipart post, so it works before (or without) scripts.
 */
export function TransferPayment({
  instructions,
  receiptUploaded,
  refusal,
  hiddenFields,
}: {
  instructions: TransferInstructionsView
  receiptUploaded: boolean
  /** Why the last upload was refused, said beside the form. */
  refusal: string | null
  /** What the page's action needs to know the order by (its id, or its number's signed key). */
  hiddenFields: Record<string, string>
}) {
  const navigation = useNavigation()
  const sending =
    navigation.state === 'submitting' && navigation.formData?.get('intent') === UPLOAD_RECEIPT_INTENT
  return (
    <section
      className="w-full max-w-md rounded-2xl border border-brand-100 p-4 text-left text-sm"
      aria-labelledby="transfer-payment-title"
      data-testid="transfer-payment"
    >
      <h2 id="transfer-payment-title" className="mb-2 text-base font-semibold">
        {TRANSFER_MESSAGES.heading}
      </h2>
      {instructions ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
          {instructions.brebKey ? (
            <>
              <dt className="text-gray-600">Llave Bre-B</dt>
              <dd className="font-semibold break-all" data-testid="transfer-breb-key">
                {instructions.brebKey}
              </dd>
            </>
          ) : null}
          {instructions.account ? (
            <>
              <dt className="text-gray-600">Cuenta</dt>
              <dd className="break-words whitespace-pre-line" data-testid="transfer-account">
                {instructions.account}
              </dd>
            </>
          ) : null}
          <dt className="text-gray-600">Valor exacto</dt>
          <dd className="font-semibold" data-testid="transfer-amount">
            {formatCOP(instructions.amount)}
          </dd>
        </dl>
      ) : (
        <p className="text-gray-700">{TRANSFER_MESSAGES.noDestination}</p>
      )}
      {instructions ? (
        <>
          <p className="mt-2 font-medium" data-testid="transfer-reference">
            {TRANSFER_MESSAGES.reference(instructions.reference)}
          </p>
          {/* Once the receipt is here the order waits for the owner, whatever the deadline. */}
          {receiptUploaded ? null : (
            <p className="mt-2 text-gray-700" data-testid="transfer-deadline">
              {TRANSFER_MESSAGES.deadline(transferDeadlineText(instructions.deadline))}
            </p>
          )}
        </>
      ) : null}
      {receiptUploaded ? (
        <p
          role="status"
          className="mt-3 rounded-xl bg-green-50 p-3 text-green-800"
          data-testid="transfer-received"
        >
          {TRANSFER_MESSAGES.received}
        </p>
      ) : null}
      <Form method="post" encType="multipart/form-data" className="mt-3 flex flex-col gap-2">
        <input type="hidden" name="intent" value={UPLOAD_RECEIPT_INTENT} />
        {Object.entries(hiddenFields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <label className="flex flex-col gap-1">
          <span className="font-medium">
            {receiptUploaded ? 'Cambiar el comprobante' : 'Comprobante de pago'}
          </span>
          <span className="text-gray-600" id="transfer-receipt-hint">
            {TRANSFER_MESSAGES.uploadHint}
          </span>
          <input
            type="file"
            name={RECEIPT_FIELD}
            accept={RECEIPT_ACCEPT}
            required
            aria-describedby={
              refusal ? 'transfer-receipt-hint transfer-receipt-error' : 'transfer-receipt-hint'
            }
            aria-invalid={refusal ? true : undefined}
            className="rounded-xl border border-brand-100 px-3 py-2"
          />
        </label>
        {refusal ? (
          <p
            id="transfer-receipt-error"
            role="alert"
            className="rounded-xl bg-red-50 p-3 text-red-700"
            data-testid="transfer-receipt-error"
          >
            {refusal}
          </p>
        ) : null}
        <button
          type="submit"
          disabled={sending}
          className="self-start rounded-full bg-brand-600 px-5 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {sending ? 'Enviando…' : 'Enviar comprobante'}
        </button>
      </Form>
    </section>
  )
}
