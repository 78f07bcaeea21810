#!/usr/bin/env bash
# GRPO, multi-turn, Qwen2.5-1.5B-Instruct against the lab's simulated users, with RLVER's
# hyper-parameters (train_rlver.sh / App. B.3): batch 32 dialogues, mini-batch 32, 1 PPO epoch,
# actor lr 1e-6 (warm-up ratio 0.02), grad clip 1.0, clip 0.2, entropy 0.001, no KL, n = 4
# rollouts per prompt, temperature 1.0, top_p 1.0, prompt cap 5,000 and response cap 10,000 tokens,
# GAE gamma = lambda = 1, 8 assistant turns (RLVER's max_turns).
# Needs verl (with the sglang multi-turn rollout), GPUs, and the users server reachable at
# $EMPATHY_USERS_URL. Not run here (no GPUs, no PyPI); see docs/SCALE-OUT.md.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
DATA="${DATA:-$HOME/data/empathy}"
export EMPATHY_USERS_URL="${EMPATHY_USERS_URL:-http://127.0.0.1:8787}"
export PYTHONPATH="$HERE${PYTHONPATH:+:$PYTHONPATH}"

# Dataset: training users x 64 seeds; validation on the 100 benchmark users (preset openings).
python3 "$HERE/make_dataset.py" --server "$EMPATHY_USERS_URL" --set train --seeds 64 --mode train --out "$DATA/train.parquet"
python3 "$HERE/make_dataset.py" --server "$EMPATHY_USERS_URL" --set benchmark --seeds 1 --split test --out "$DATA/test.parquet"

python3 -m verl.trainer.main_ppo \
  algorithm.adv_estimator=grpo \
  algorithm.use_kl_in_reward=False \
  algorithm.kl_ctrl.kl_coef=0.0 \
  algorithm.gamma=1.0 \
  algorithm.lam=1.0 \
  data.train_files="$DATA/train.parquet" \
  data.val_files="$DATA/test.parquet" \
  data.train_batch_size=32 \
  data.max_prompt_length=5000 \
  data.max_response_length=10000 \
  data.filter_overlong_prompts=True \
  data.truncation=error \
  data.return_raw_chat=True \
  actor_rollout_ref.model.path=Qwen/Qwen2.5-1.5B-Instruct \
  actor_rollout_ref.model.use_remove_padding=True \
  actor_rollout_ref.model.enable_gradient_checkpointing=True \
  actor_rollout_ref.actor.optim.lr=1e-6 \
  actor_rollout_ref.actor.optim.lr_warmup_steps_ratio=0.02 \
  actor_rollout_ref.actor.grad_clip=1.0 \
  actor_rollout_ref.actor.clip_ratio=0.2 \
  actor_rollout_ref.actor.entropy_coeff=0.001 \
  actor_rollout_ref.actor.use_kl_loss=False \
  actor_rollout_ref.actor.kl_loss_coef=0.0 \
  actor_rollout_ref.actor.ppo_epochs=1 \
  actor_rollout_ref.actor.ppo_mini_batch_size=32 \
  actor_rollout_ref.actor.use_dynamic_bsz=True \
  actor_rollout_ref.actor.ppo_max_token_len_per_gpu=48000 \
  actor_rollout_ref.actor.loss_agg_mode=token-mean \
  actor_rollout_ref.rollout.name=sglang \
  actor_rollout_ref.rollout.n=4 \
  actor_rollout_ref.rollout.temperature=1.0 \
  actor_rollout_ref.rollout.top_p=1.0 \
  actor_rollout_ref.rollout.gpu_memory_utilization=0.6 \
  actor_rollout_ref.rollout.tensor_model_parallel_size=1 \
  actor_rollout_ref.rollout.multi_turn.enable=True \
  actor_rollout_ref.rollout.multi_turn.max_assistant_turns=8 \
  actor_rollout_ref.rollout.multi_turn.max_user_turns=8 \
  actor_rollout_ref.rollout.multi_turn.interaction_config_path="$HERE/interaction_config.yaml" \
  trainer.critic_warmup=0 \
  trainer.logger='["console"]' \
  trainer.project_name=empathy-users \
  trainer.experiment_name=grpo-qwen2.5-1.5b-rlver \
  trainer.n_gpus_per_node="${GPUS:-8}" \
  trainer.nnodes="${NODES:-1}" \
  trainer.total_training_steps=1000 \
  trainer.save_freq=50 \
  trainer.test_freq=10 "$@"
