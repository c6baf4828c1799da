import { departmentCoded } from '#app/modules/places/departments.ts'
import { municipalityCoded } from '#app/modules/places/places.server.ts'
import type { CarrierSettings } from '#app/modules/settings/settings.server.ts'
import type { ShipmentParty } from './provider.ts'

/** A DANE municipality as a shipment's place (with its department), or null when unknown. */
export function placeParty(municipalityCode: string) {
  const municipality = municipalityCoded(municipalityCode)
  const department = municipality && departmentCoded(municipality.departmentCode)
  if (!municipality || !department) return null
  return {
    municipalityCode: municipality.code,
    municipalityName: municipality.name,
    departmentCode: department.code,
    departmentName: department.name,
  }
}

/** A NIT or cédula as carriers take it: digits only, without a NIT's check digit. */
export function identificationDigits(identification: string): string {
  return identification.replace(/-\d$/, '').replace(/\D/g, '')
}

/**
 * The sender of every guía: the seller of "Configuraciones" at the pickup address. Null until the
 * pickup street, municipality and phone are saved (or the municipality is not DANE's).
 */
export function originParty(settings: CarrierSettings): ShipmentParty | null {
  const place = settings.origin && placeParty(settings.origin.municipalityCode)
  if (!settings.origin || !place) return null
  return {
    name: settings.sender.name,
    phone: settings.origin.phone,
    ...(settings.sender.email ? { email: settings.sender.email } : {}),
    street: settings.origin.street,
    ...place,
    identificationNumber: identificationDigits(settings.sender.nit),
  }
}
