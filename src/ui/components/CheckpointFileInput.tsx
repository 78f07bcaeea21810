/**
 * "Or a checkpoint file": a file picker for a saved policy (.bin). The input is cleared after each
 * pick, so choosing the same file again (say, after fixing what went wrong) fires again.
 */
export function CheckpointFileInput({
  disabled,
  testId,
  onFile,
}: {
  disabled: boolean;
  testId: string;
  onFile: (file: File) => void;
}) {
  return (
    <label className="chat-file">
      Or a checkpoint file
      <input
        type="file"
        accept=".bin,application/octet-stream"
        disabled={disabled}
        data-testid={testId}
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) onFile(f);
        }}
      />
    </label>
  );
}
