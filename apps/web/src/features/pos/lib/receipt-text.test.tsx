import { describe, expect, it } from 'vitest';
import { whatsappLink } from '@/features/pos/lib/receipt-text';

describe('the receipt on WhatsApp', () => {
  it('writes a Kenyan 07… number as 2547… and carries the text', () => {
    expect(whatsappLink('0712 345 678', 'INV-000001\nTotal KSh 203.00')).toBe('https://wa.me/254712345678?text=INV-000001%0ATotal%20KSh%20203.00');
    expect(whatsappLink('254712345678', 'x')).toBe('https://wa.me/254712345678?text=x');
    expect(whatsappLink(null, 'x')).toBe('https://wa.me/?text=x');
  });
});
