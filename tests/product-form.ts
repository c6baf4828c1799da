import type { CreateProductInput } from '#app/modules/catalog/admin-products.server.ts'
import { ProductFieldsSchema, type ProductFields } from '#app/modules/catalog/validators.ts'
import { pngUpload } from './media.ts'

/** The product form's fields as the admin fills them, parsed as the server parses them. */
export function productFields(categoryId: string, overrides: Partial<ProductFields> = {}): ProductFields {
  return ProductFieldsSchema.parse({
    name: 'Collar Luna',
    description: 'Collar dorado con dije de luna',
    categoryIds: [categoryId],
    cost: '12000',
    level1: '45000.5',
    discountPercent: '10',
    purchaseLink: 'https://proveedor.example/luna',
    supplierInfo: 'Proveedor Medellín',
    showWholesale: 'on',
    showRetail: 'on',
    ...overrides,
  })
}

/** A create-form post: those fields and two real images, the second one main. */
export async function productInput(
  categoryId: string,
  overrides: Partial<CreateProductInput> = {},
): Promise<CreateProductInput> {
  return {
    fields: productFields(categoryId),
    uploads: [await pngUpload('uno.png', '#aa0000'), await pngUpload('dos.png', '#00aa00')],
    mainIndex: 1,
    ...overrides,
  }
}
