/**
 * The auditor console under `/admin` (PRODUCT.md 7). It is its own lazily
 * loaded chunk, so borrowers never download it. Its screens arrive with the
 * console's own issue; until then this page says where the console will be.
 */
export default function AdminApp() {
  return (
    <div style={{ maxWidth: 720, margin: '80px auto', padding: 24, fontFamily: 'system-ui' }} data-testid="admin-console">
      <h1>Auditor console</h1>
      <p>The loan officers' console lives here. Sign in with an auditor account created by
        <code> api create-auditor</code>.</p>
    </div>
  );
}
