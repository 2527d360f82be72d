import QRCode from 'qrcode';

/** One way the server draws a QR code (order, ticket, membership card): a PNG the scanners at the door read. */
export const qrPng = (text: string, width = 320): Promise<Buffer> =>
  QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width });
