import { Link } from 'react-router';

/** A report row's product: its name, a link to its stock history, and its SKU under it when it has one. */
export function ProductHistoryLink({ productId, name, sku }: { productId: string; name: string; sku: string | null | undefined }) {
  return (
    <>
      <Link to={`/app/products/history/${productId}`} className="font-medium text-slate-900 hover:text-primary hover:underline">
        {name}
      </Link>
      {sku ? <span className="block text-xs text-slate-600">{sku}</span> : null}
    </>
  );
}
