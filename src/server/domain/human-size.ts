const UNITS = ['Bytes', 'KiB', 'MiB', 'GiB', 'TiB']

/**
 * Rails' `number_to_human_size` as GitLab configures it (binary units, 3 significant digits,
 * insignificant zeros stripped): 1048576 -> "1 MiB", 2000000 -> "1.91 MiB", 1 -> "1 Byte".
 */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'Byte' : 'Bytes'}`
  let exp = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), UNITS.length - 1)
  let value = bytes / 1024 ** exp
  let rounded = Number(value.toPrecision(3))
  if (rounded >= 1024 && exp < UNITS.length - 1) {
    exp++
    value = bytes / 1024 ** exp
    rounded = Number(value.toPrecision(3))
  }
  return `${rounded} ${UNITS[exp]}`
}
