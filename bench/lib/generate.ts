// Generated catalogues for the stock benchmarks (no server imports: usable anywhere).

const WORDS = ['Amoxicillin', 'Paracetamol', 'Ibuprofen', 'Metformin', 'Amlodipine', 'Losartan', 'Cetirizine', 'Omeprazole', 'Ciprofloxacin', 'Azithromycin', 'Diclofenac', 'Prednisolone', 'Salbutamol', 'Vitamin C', 'Zinc', 'Folic Acid', 'Atorvastatin', 'Clotrimazole', 'Metronidazole', 'Loratadine'];
const FORMS = ['Tablets', 'Capsules', 'Syrup 100ml', 'Suspension 60ml', 'Cream 20g', 'Injection', 'Drops 10ml', 'Gel 30g'];
const STRENGTHS = ['5mg', '10mg', '20mg', '50mg', '100mg', '250mg', '500mg', '1g'];

/** A generated product name of the n-th product (varied enough for a realistic search). */
export function productName(n: number): string {
  const word = WORDS[n % WORDS.length]!;
  const form = FORMS[Math.floor(n / WORDS.length) % FORMS.length]!;
  const strength = STRENGTHS[Math.floor(n / (WORDS.length * FORMS.length)) % STRENGTHS.length]!;
  return `${word} ${strength} ${form} ${n.toString(36).toUpperCase()}`;
}

/** A CSV of n product rows in the template's columns, each with a price, stock and one batch. */
export function generatedCsv(n: number, offset = 0): string {
  const lines = ['Name,SKU,Barcodes,Category,Package Size,Package Type,Unit,DDA,Tax Applied,Tax Rate (%),Min Margin (%),Low Stock Threshold,Reorder Level,Branch,Selling Price (KSh),Purchase Price (KSh),Opening Quantity,Batch Number,Expiry Date,Unit Cost (KSh)'];
  for (let i = offset; i < offset + n; i += 1) {
    const buy = 5 + (i % 300);
    lines.push(
      `"${productName(i)}",SKU-${i},${6160000000000 + i},Medicine,${i % 3 === 0 ? 100 : 1},tablets,tablet,${i % 97 === 0 ? 'Yes' : 'No'},No,16,22,5,2,${i % 2 ? 'Westlands Branch' : 'Main Branch'},${(buy * 1.4).toFixed(2)},${buy}.00,${10 + (i % 500)},B${i},2027-${String((i % 12) + 1).padStart(2, '0')}-15,${buy}.00`,
    );
  }
  return lines.join('\r\n') + '\r\n';
}
